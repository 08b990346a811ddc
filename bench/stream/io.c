/*
 * Whole writes and reads on a pipe, through short counts and signals.
 */
#include "stream.h"

/* Write the n bytes at p to fd: 0, or -1 with errno. */
int
writeall(int fd, const void *p, size_t n)
{
	size_t off = 0;
	ssize_t r;

	while (off < n) {
		r = write(fd, (const char *)p + off, n - off);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1)
			return -1;
		off += (size_t)r;
	}
	return 0;
}

/* Read n bytes from fd into p: 0; -1 with errno, or errno 0 at the end. */
int
readall(int fd, void *p, size_t n)
{
	size_t off = 0;
	ssize_t r;

	while (off < n) {
		r = read(fd, (char *)p + off, n - off);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = 0;
			return -1;
		}
		off += (size_t)r;
	}
	return 0;
}
