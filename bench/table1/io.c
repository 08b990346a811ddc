/*
 * The children's input and output: the time reported to the driver,
 * whole reads and writes, and the array as text.
 */
#include "table1.h"

/* To the driver on fd 3 if it gave us one, else to the user. */
void
report(char what, double secs)
{
	if (fcntl(3, F_GETFD) != -1)
		dprintf(3, "%c %.9f\n", what, secs);
	else
		fprintf(stderr, "%s %.6f s\n", what == 'w' ? "writer" :
		    "reader", secs);
}

void
writeall(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t k;

	while (len > 0) {
		if ((k = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "write");
		}
		p += k;
		len -= (size_t)k;
	}
}

/* Read exactly len bytes, then insist on end of file. */
void
readall(int fd, void *buf, size_t len)
{
	char *p = buf, c;
	ssize_t k;

	while (len > 0) {
		if ((k = read(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "read");
		}
		if (k == 0)
			errx(1, "short input: %zu bytes missing", len);
		p += k;
		len -= (size_t)k;
	}
	if (read(fd, &c, 1) != 0)
		errx(1, "more input than expected");
}

void
write_text(const double *x, size_t n, int form)
{
	char *buf = xmalloc(TBUF), *p = buf;
	size_t i;

	for (i = 0; i < n; i++) {
		if (form == PRINTF)
			p += snprintf(p, SHMIDS_NUM_MAX, "%.17g", x[i]);
		else
			p += shmids_format(p, SHMIDS_F64, &x[i], SHMIDS_SHORT);
		*p++ = '\n';
		if (p - buf > TBUF - SHMIDS_NUM_MAX - 1) {
			writeall(1, buf, (size_t)(p - buf));
			p = buf;
		}
	}
	writeall(1, buf, (size_t)(p - buf));
	free(buf);
}

/* Parse the lines in s[0..len), each ending in "\n", into x. */
static size_t
parse_lines(char *s, size_t len, double *x, size_t room, int form)
{
	char *lim = s + len, *e;
	const char *ce;
	size_t k = 0;

	while (s < lim) {
		if (*s == '\n') {
			s++;
			continue;
		}
		if (k == room)
			errx(1, "more values than expected");
		if (form == PRINTF) {
			x[k] = strtod(s, &e);
		} else {
			if (shmids_parse(s, &ce, SHMIDS_F64, &x[k]) == -1)
				ce = s;
			e = s + (ce - s);
		}
		if (e == s || *e != '\n')
			errx(1, "bad value near \"%.20s\"", s);
		k++;
		s = e;
	}
	return k;
}

/* Read n values, one a line, in chunks; a value never spans two parses. */
void
read_text(double *x, size_t n, int form)
{
	char *buf = xmalloc(TBUF + 1);
	size_t have = 0, got = 0, lim;
	ssize_t k;

	for (;;) {
		if ((k = read(0, buf + have, TBUF - have)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "read");
		}
		if (k == 0)
			break;
		have += (size_t)k;
		for (lim = have; lim > 0 && buf[lim - 1] != '\n'; lim--)
			;
		if (lim == 0 && have == TBUF)
			errx(1, "line too long");
		got += parse_lines(buf, lim, x + got, n - got, form);
		memmove(buf, buf + lim, have - lim);
		have -= lim;
	}
	buf[have] = '\n';
	got += parse_lines(buf, have + 1, x + got, n - got, form);
	if (got != n)
		errx(1, "%zu values, want %zu", got, n);
	free(buf);
}
