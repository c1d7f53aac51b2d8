package gnu

import (
	"fmt"
	"strings"

	"github.com/hashlanes/hashlanes/cmd/hashlanes/internal/method"
)

var specOf = map[string]string{
	"b2sum":     "RFC 7693",
	"md5sum":    "RFC 1321",
	"sha1sum":   "FIPS-180-1",
	"sha224sum": "RFC 3874",
}

// help prints the usage of the drop-in (in GNU's layout, so that scripts
// and people find what they know) or of hashlanes sum / check.
func (s *Settings) Help() string {
	if s.Fam != nil && s.Fam.Cksum {
		return s.cksumHelp()
	}
	if s.Fam != nil && s.Fam.Sum {
		return s.sumHelp()
	}
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	if s.DropIn {
		tag, bits := "BLAKE2b", 512 // b2sum's, whose algorithm waits for -l
		if len(s.Algs) > 0 {
			tag, bits = s.Algs[0].Tag, 8*s.Algs[0].Size
		}
		w("Usage: %s [OPTION]... [FILE]...\n", s.Prog)
		w("Print or check %s (%d-bit) checksums.\n\n", tag, bits)
	} else if s.Check {
		w("Usage: %s [OPTION]... [FILE]...\n", s.Name)
		w("Verify checksum lists made by md5sum, sha*sum, b2sum, cksum, hashlanes sum\n")
		w("or openssl dgst. Each line's algorithm is taken from its tag, or\n")
		w("guessed from its digest length (32 md5, 40 sha1, 56 sha224, 64 sha256, 96 sha384,\n")
		w("128 sha512) unless -a is given; a list of another algorithm of that length\n")
		w("(b3sum's, say) fails as the guess, and a note says which -a to try.\n\n")
	} else {
		w("Usage: %s [OPTION]... [FILE]...\n", s.Name)
		w("Print or check checksums, many files at once in SIMD lanes.\n\n")
	}
	w("With no FILE, or when FILE is -, read standard input.\n")
	if s.Check && !s.DropIn {
		s.checkHelp(&b)
		return b.String()
	}
	if !s.DropIn {
		w("  -a, --algorithm=LIST  one or more of: %s\n", method.Known())
		w("                          (comma-separated; several print tagged lines)\n")
	}
	if s.Fam != nil {
		w("\nMandatory arguments to long options are mandatory for short options too.\n")
	}
	w("  -b, --binary          read in binary mode\n")
	w("  -c, --check           read checksums from the FILEs and check them\n")
	if s.Fam != nil {
		w("  -l, --length=BITS     digest length in bits; must not exceed the max size\n")
		w("                          and must be a multiple of 8 for blake2b;\n")
		w("                          must be 224, 256, 384, or 512 for sha2 or sha3\n")
	}
	w("      --tag             create a BSD-style checksum\n")
	w("  -t, --text            read in text mode (default)\n")
	w("  -z, --zero            end each output line with NUL, not newline,\n")
	w("                          and disable file name escaping\n")
	if !s.DropIn {
		w("  -r, --recursive       hash the regular files under each directory, sorted\n")
		w("      --follow          with -r, follow symbolic links\n")
		w("      --files-from=FILE read the names to hash from FILE (- for standard input)\n")
		w("  -0, --null            names in --files-from end with NUL, not newline\n")
		w("      --json            print one JSON object per file\n")
		w("  -j, --jobs=N          hash N files at once (default: 32 per CPU); the memory\n")
		w("                          bound: a 64 KiB buffer a file, 1 MiB of read-ahead\n")
		w("                          for two large files a CPU\n")
		w("      --progress        show progress on stderr even when it is not a terminal\n")
		w("      --no-progress     never show progress\n")
	}
	w("\nThe following five options are useful only when verifying checksums:\n")
	w("      --ignore-missing  don't fail or report status for missing files\n")
	w("      --quiet           don't print OK for each successfully verified file\n")
	w("      --status          don't output anything, status code shows success\n")
	w("      --strict          exit non-zero for improperly formatted checksum lines\n")
	w("  -w, --warn            warn about improperly formatted checksum lines\n\n")
	w("      --help        display this help and exit\n")
	w("      --version     output version information and exit\n\n")
	if s.DropIn {
		spec := specOf[s.Name]
		if spec == "" {
			spec = "FIPS-180-2"
		}
		w("The sums are computed as described in %s.\n", spec)
	}
	w("When checking, the input should be a former output of this program.\n")
	w("The default mode is to print a line with: checksum, a space,\n")
	w("a character indicating input mode ('*' for binary, ' ' for text\n")
	w("or where binary is insignificant), and name for each FILE.\n\n")
	w("Note: There is no difference between binary mode and text mode on GNU systems.\n\n")
	w("This is hashlanes, which hashes many files at once in SIMD lanes; its output,\n")
	w("messages and exit codes are those of GNU coreutils' %s.\n", s.gnuName())
	return b.String()
}

func (s *Settings) gnuName() string {
	if s.DropIn {
		return s.Name
	}
	return "md5sum and sha*sum"
}

// checkHelp finishes hashlanes check's usage: only the options it takes.
func (s *Settings) checkHelp(b *strings.Builder) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("  -a, --algorithm=NAME  read every line as NAME, one of: %s\n", method.Known())
	w("      --audit=DIR       audit the tree under DIR against the lists, as hashdeep -a:\n")
	w("                          each file OK, CHANGED, MOVED (from a listed file that is\n")
	w("                          gone) or NEW, each listed file not there MISSING; the\n")
	w("                          status is 0 if every file is OK, 1 if not\n")
	w("  -j, --jobs=N          check N files at once (default: 32 per CPU)\n")
	w("      --json            print one JSON object per line checked (status OK, FAILED,\n")
	w("                          unreadable or malformed; --quiet leaves out the OK ones)\n")
	w("      --ignore-missing  don't fail or report status for missing files\n")
	w("      --quiet           don't print OK for each successfully verified file\n")
	w("      --status          don't output anything, status code shows success\n")
	w("      --strict          exit non-zero for improperly formatted checksum lines\n")
	w("  -w, --warn            warn about improperly formatted checksum lines\n")
	w("      --progress        show progress on stderr even when it is not a terminal\n")
	w("      --no-progress     never show progress\n")
	w("      --help            display this help and exit\n")
	w("      --version         output version information and exit\n\n")
	w("Lines may be GNU's untagged (\"DIGEST  NAME\") or tagged (\"SHA256 (NAME) = DIGEST\",\n")
	w("b2sum's and cksum's \"BLAKE2b-256 (NAME) = ...\" and \"SM3 (NAME) = ...\" too) form, BSD\n")
	w("md5 -r's (\"DIGEST NAME\"), OpenSSL dgst's (\"SHA256(NAME)= DIGEST\", and OpenSSL 3's\n")
	w("\"SHA2-256(NAME)= DIGEST\"), rhash's default SFV (\"NAME CRC32\", ';' comments) and\n")
	w("its lines of several digests (\"NAME  DIGEST  DIGEST...\", rhash -a too), hashdeep's\n")
	w("known files (\"%%%%%%%% HASHDEEP-1.0\" headers, \"SIZE,MD5,SHA256,NAME\" lines, names\n")
	w("absolute or relative as hashdeep wrote them) and md5deep -z's (\"SIZE  DIGEST  NAME\");\n")
	w("every digest of a line is verified, and the size where it has one (Tiger, Whirlpool\n")
	w("and rhash's other algorithms are read, not verified).\n")
	w("b3sum's and other untagged lists of a digest length several algorithms share\n")
	w("need -a (a note says so when their lines fail).\n")
	w("The exit status is 1 if a file failed or could not be read, as with md5sum -c and\n")
	w("sha*sum -s.\n")
}

// cksumHelp is coreutils 9.10's cksum --help, and what hashlanes adds.
func (s *Settings) cksumHelp() string {
	return "Usage: " + s.Prog + ` [OPTION]... [FILE]...
Print or verify checksums.
By default use the 32 bit CRC algorithm.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -a, --algorithm=TYPE  select the digest type to use.  See DIGEST below
      --base64          emit base64-encoded digests, not hexadecimal
  -c, --check           read checksums from the FILEs and check them
  -l, --length=BITS     digest length in bits; must not exceed the max size
                          and must be a multiple of 8 for blake2b;
                          must be 224, 256, 384, or 512 for sha2 or sha3
      --raw             emit a raw binary digest, not hexadecimal
      --tag             create a BSD-style checksum (the default)
      --untagged        create a reversed style checksum, without digest type
  -z, --zero            end each output line with NUL, not newline,
                          and disable file name escaping

The following five options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet           don't print OK for each successfully verified file
      --status          don't output anything, status code shows success
      --strict          exit non-zero for improperly formatted checksum lines
  -w, --warn            warn about improperly formatted checksum lines

      --debug           indicate which implementation used
      --help        display this help and exit
      --version     output version information and exit

DIGEST determines the digest algorithm and default output format:
  sysv      (equivalent to sum -s)
  bsd       (equivalent to sum -r)
  crc       (equivalent to cksum)
  crc32b    (only available through cksum)
  md5       (equivalent to md5sum)
  sha1      (equivalent to sha1sum)
  sha2      (equivalent to sha{224,256,384,512}sum)
  sha3      (only available through cksum)
  blake2b   (equivalent to b2sum)
  sm3       (only available through cksum)

When checking, the input should be a former output of this program,
or equivalent standalone program.

This is hashlanes, which hashes many files at once in SIMD lanes; its output,
messages and exit codes are those of GNU coreutils' cksum (9.10).
`
}

// sumHelp is coreutils' sum --help, and what hashlanes adds.
func (s *Settings) sumHelp() string {
	return "Usage: " + s.Prog + ` [OPTION]... [FILE]...
Print or check BSD (16-bit) checksums.

With no FILE, or when FILE is -, read standard input.

  -r              use BSD sum algorithm (the default), use 1K blocks
  -s, --sysv      use System V sum algorithm, use 512 bytes blocks
      --help        display this help and exit
      --version     output version information and exit

This is hashlanes; its output, messages and exit codes are those of GNU
coreutils' sum.
`
}
