/*
 * isal_peer: isa-l_crypto's multi-buffer hashing on the two shapes
 * hashlanes is compared on (scripts/peer-isal), on one core:
 *
 *   perf     isa-l_crypto's own perf programs' workload: 32 jobs of 4 KiB,
 *            warm, each submitted whole, then the manager flushed;
 *   streams  BenchmarkVersusStdlib's: N streams of 1 MiB in 32 KiB
 *            updates, every stream's next update submitted as soon as its
 *            previous one is done, the manager flushed when all are busy.
 *
 * It prints one line: the median MB/s (10^6 bytes a second) of REPS timed
 * repetitions of at least MIN_MS each, and the hex digest of message 0,
 * which the script compares with hashlanes' digest of the same bytes.
 *
 *   cc -O2 -I$ISAL/include -o isal_peer isal_peer.c $ISAL/bin/isa-l_crypto.a
 *   isal_peer md5|sha1|sha256|sha512 perf|streams [N] [auto|avx2]
 *
 * The bytes of message k are byte(((i + 4099*k) * 2654435761) >> 24) for
 * i = 0, 1, ...: the same as hashlanes' side (bench/peers/isal/hlpeer).
 */
#define _POSIX_C_SOURCE 200112L
#include <cpuid.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <isa-l_crypto/md5_mb.h>
#include <isa-l_crypto/sha1_mb.h>
#include <isa-l_crypto/sha256_mb.h>
#include <isa-l_crypto/sha512_mb.h>

#define REPS   7
#define MIN_MS 200

/* The tier entry points (isa-l_crypto 2.26 names them with a leading
 * underscore); "auto" is the library's own dispatch, "avx2" what it
 * dispatches to on an AVX2 CPU without AVX-512: the AVX2 kernels, but
 * SHA-1's and SHA-256's SHA-NI ones (sse_ni) where the CPU has SHA-NI. */
#define TIER_DECLS(alg, T)                                                                         \
        void _##alg##_ctx_mgr_init_##T(void *mgr);                                                 \
        void *_##alg##_ctx_mgr_submit_##T(void *mgr, void *ctx, const void *buf, uint32_t len,     \
                                          int flags);                                              \
        void *_##alg##_ctx_mgr_flush_##T(void *mgr);
TIER_DECLS(md5, avx2)
TIER_DECLS(sha1, avx2)
TIER_DECLS(sha256, avx2)
TIER_DECLS(sha512, avx2)
TIER_DECLS(sha1, sse_ni)
TIER_DECLS(sha256, sse_ni)

/* One algorithm through isa-l_crypto's context manager, whatever its
 * types: sizes for allocation, the three calls, and how to read a
 * context's digest. */
struct alg {
        const char *name;
        size_t mgr_size, ctx_size, digest_words, word_size;
        int little_endian; /* MD5's digest words are little-endian */
        void (*init)(void *);
        void *(*submit)(void *, void *, const void *, uint32_t, int);
        void *(*flush)(void *);
        void (*init_avx2)(void *);
        void *(*submit_avx2)(void *, void *, const void *, uint32_t, int);
        void *(*flush_avx2)(void *);
        void (*init_ni)(void *); /* NULL: no SHA-NI kernels */
        void *(*submit_ni)(void *, void *, const void *, uint32_t, int);
        void *(*flush_ni)(void *);
        size_t status_off, error_off, digest_off;
};

#define ALG(n, U, W, LE, NI_INIT, NI_SUBMIT, NI_FLUSH)                                             \
        { #n,                                                                                      \
          sizeof(ISAL_##U##_HASH_CTX_MGR),                                                         \
          sizeof(ISAL_##U##_HASH_CTX),                                                             \
          ISAL_##U##_DIGEST_NWORDS,                                                                \
          W,                                                                                       \
          LE,                                                                                      \
          (void (*)(void *)) n##_ctx_mgr_init,                                                     \
          (void *(*) (void *, void *, const void *, uint32_t, int)) n##_ctx_mgr_submit,            \
          (void *(*) (void *)) n##_ctx_mgr_flush,                                                  \
          _##n##_ctx_mgr_init_avx2,                                                                \
          _##n##_ctx_mgr_submit_avx2,                                                              \
          _##n##_ctx_mgr_flush_avx2,                                                               \
          NI_INIT,                                                                                 \
          NI_SUBMIT,                                                                               \
          NI_FLUSH,                                                                                \
          offsetof(ISAL_##U##_HASH_CTX, status),                                                   \
          offsetof(ISAL_##U##_HASH_CTX, error),                                                    \
          offsetof(ISAL_##U##_HASH_CTX, job.result_digest) }

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static const struct alg algs[] = {
        ALG(md5, MD5, 4, 1, NULL, NULL, NULL),
        ALG(sha1, SHA1, 4, 0, _sha1_ctx_mgr_init_sse_ni, _sha1_ctx_mgr_submit_sse_ni,
            _sha1_ctx_mgr_flush_sse_ni),
        ALG(sha256, SHA256, 4, 0, _sha256_ctx_mgr_init_sse_ni, _sha256_ctx_mgr_submit_sse_ni,
            _sha256_ctx_mgr_flush_sse_ni),
        ALG(sha512, SHA512, 8, 0, NULL, NULL, NULL),
};

static const struct alg *A;
static void (*init)(void *);
static void *(*submit)(void *, void *, const void *, uint32_t, int);
static void *(*flush)(void *);

static int
has_sha_ni(void)
{
        unsigned a, b, c, d;
        return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
}

static void *
aligned(size_t n)
{
        void *p;
        if (posix_memalign(&p, 64, n) != 0) {
                fprintf(stderr, "isal_peer: out of memory\n");
                exit(1);
        }
        memset(p, 0, n);
        return p;
}

static int
status(void *ctx)
{
        return *(int *) ((char *) ctx + A->status_off);
}

static void
fill(uint8_t *b, size_t n, unsigned k)
{
        for (size_t i = 0; i < n; i++)
                b[i] = (uint8_t) (((uint32_t) (i + 4099u * k) * 2654435761u) >> 24);
}

static double
now(void)
{
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return t.tv_sec + t.tv_nsec * 1e-9;
}

static int
cmp(const void *a, const void *b)
{
        double x = *(const double *) a, y = *(const double *) b;
        return (x > y) - (x < y);
}

static void
check(void *ctx)
{
        if (ctx != NULL && *(int *) ((char *) ctx + A->error_off) != 0) {
                fprintf(stderr, "isal_peer: context error %d\n",
                        *(int *) ((char *) ctx + A->error_off));
                exit(1);
        }
}

/* perf: n whole messages of size bytes, submitted, then flushed. */
static void
run_perf(void *mgr, void **ctxs, uint8_t **msgs, int n, size_t size)
{
        for (int i = 0; i < n; i++)
                check(submit(mgr, ctxs[i], msgs[i], (uint32_t) size, ISAL_HASH_ENTIRE));
        while (flush(mgr) != NULL)
                ;
}

/* streams: n messages of size bytes in updates of piece bytes; a stream's
 * next update goes in as soon as its previous one is done. */
static void
run_streams(void *mgr, void **ctxs, uint8_t **msgs, int n, size_t size, size_t piece)
{
        size_t *sent = calloc(n, sizeof *sent);
        int done = 0;
        while (done < n) {
                int progressed = 0;
                for (int i = 0; i < n; i++) {
                        int st = status(ctxs[i]);
                        if (sent[i] == size || (sent[i] > 0 && st != ISAL_HASH_CTX_STS_IDLE))
                                continue; /* finished, or still busy with its update */
                        size_t k = size - sent[i] < piece ? size - sent[i] : piece;
                        int flags = sent[i] == 0 ? ISAL_HASH_FIRST : ISAL_HASH_UPDATE;
                        if (sent[i] + k == size)
                                flags = sent[i] == 0 ? ISAL_HASH_ENTIRE : ISAL_HASH_LAST;
                        check(submit(mgr, ctxs[i], msgs[i] + sent[i], (uint32_t) k, flags));
                        sent[i] += k;
                        if (sent[i] == size)
                                done++;
                        progressed = 1;
                }
                if (!progressed)
                        check(flush(mgr));
        }
        while (flush(mgr) != NULL)
                ;
        free(sent);
}

int
main(int argc, char **argv)
{
        if (argc < 3) {
                fprintf(stderr, "usage: isal_peer md5|sha1|sha256|sha512 perf|streams [N] [auto|avx2]\n");
                return 2;
        }
        for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++)
                if (strcmp(argv[1], algs[i].name) == 0)
                        A = &algs[i];
        if (A == NULL) {
                fprintf(stderr, "isal_peer: unknown algorithm %s\n", argv[1]);
                return 2;
        }
        int perf = strcmp(argv[2], "perf") == 0;
        if (!perf && strcmp(argv[2], "streams") != 0) {
                fprintf(stderr, "isal_peer: unknown workload %s\n", argv[2]);
                return 2;
        }
        int n = argc > 3 ? atoi(argv[3]) : (perf ? 32 : 16);
        int avx2 = argc > 4 && strcmp(argv[4], "avx2") == 0;
        if (n < 1) {
                fprintf(stderr, "isal_peer: bad N %s\n", argv[3]);
                return 2;
        }
        init = A->init, submit = A->submit, flush = A->flush;
        if (avx2 && A->init_ni != NULL && has_sha_ni()) {
                init = A->init_ni, submit = A->submit_ni, flush = A->flush_ni;
        } else if (avx2) {
                init = A->init_avx2, submit = A->submit_avx2, flush = A->flush_avx2;
        }

        size_t size = perf ? 4096 : 1 << 20;
        void *mgr = aligned(A->mgr_size);
        void **ctxs = calloc(n, sizeof *ctxs);
        uint8_t **msgs = calloc(n, sizeof *msgs);
        for (int i = 0; i < n; i++) {
                ctxs[i] = aligned(A->ctx_size);
                msgs[i] = aligned(size);
                fill(msgs[i], size, (unsigned) i);
        }
        init(mgr);

        double mbps[REPS];
        for (int rep = -1; rep < REPS; rep++) { /* rep -1 warms up */
                long iters = 0;
                double start = now(), t;
                do {
                        if (perf)
                                run_perf(mgr, ctxs, msgs, n, size);
                        else
                                run_streams(mgr, ctxs, msgs, n, size, 32 << 10);
                        iters++;
                } while ((t = now() - start) < MIN_MS / 1000.0);
                if (rep >= 0)
                        mbps[rep] = (double) iters * n * size / t / 1e6;
        }
        qsort(mbps, REPS, sizeof mbps[0], cmp);

        printf("%.0f ", mbps[REPS / 2]);
        const uint8_t *d = (const uint8_t *) ctxs[0] + A->digest_off;
        for (size_t w = 0; w < A->digest_words; w++)
                for (size_t b = 0; b < A->word_size; b++) {
                        size_t i = A->little_endian ? b : A->word_size - 1 - b;
                        printf("%02x", d[w * A->word_size + i]);
                }
        printf("\n");
        return 0;
}
