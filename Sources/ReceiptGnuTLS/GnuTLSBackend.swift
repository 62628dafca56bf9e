#if GnuTLS
// GnuTLSBackend: being written (issue 2).
#endif
