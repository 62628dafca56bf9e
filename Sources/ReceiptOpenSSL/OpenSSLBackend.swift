#if OpenSSL
// OpenSSLBackend: being written (issue 2).
#endif
