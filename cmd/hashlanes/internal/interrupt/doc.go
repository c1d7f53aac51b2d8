// Package interrupt stops a checksum command at SIGINT or SIGTERM with
// only whole lines printed, and ends it by that signal, as the shell
// expects of GNU's tools.
package interrupt
