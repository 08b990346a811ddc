/*
 * Lines from the children, and labels.
 */
#include "stress.h"

/* Children report in lines shorter than PIPE_BUF, which never mix. */
void
say(int fd, const char *s)
{
	size_t n = strlen(s);
	ssize_t r;

	while (n > 0) {
		if ((r = write(fd, s, n)) == -1) {
			if (errno == EINTR)
				continue;
			_exit(3);
		}
		s += r;
		n -= (size_t)r;
	}
}

void
lines_init(struct lines *l, int fd)
{
	l->fd = fd;
	l->off = l->len = 0;
}

/* Read once: 1 got bytes, 0 EOF, -1 error (EINTR included). */
int
lines_fill(struct lines *l)
{
	ssize_t r;

	if (l->len == sizeof(l->buf)) {
		errno = EMSGSIZE;
		return -1;
	}
	r = read(l->fd, l->buf + l->len, sizeof(l->buf) - l->len);
	if (r > 0)
		l->len += (size_t)r;
	return r > 0 ? 1 : (int)r;
}

/* The next whole line, newline removed; NULL when none is complete. */
char *
lines_next(struct lines *l)
{
	char *nl, *s;

	nl = memchr(l->buf + l->off, '\n', l->len - l->off);
	if (nl == NULL) {
		memmove(l->buf, l->buf + l->off, l->len - l->off);
		l->len -= l->off;
		l->off = 0;
		return NULL;
	}
	*nl = '\0';
	s = l->buf + l->off;
	l->off = (size_t)(nl - l->buf) + 1;
	return s;
}

/* Read whatever is there and hand each line to fn; 0 once at EOF. */
int
lines_serve(struct lines *l, void (*fn)(char *))
{
	char *s;
	int r;

	r = lines_fill(l);
	while ((s = lines_next(l)) != NULL)
		fn(s);
	if (r == -1 && errno == EINTR)
		return 1;
	if (r == -1)
		failure("reading reports: %s", strerror(errno));
	return r == 1;
}

int
shmid_of(const char *label)
{
	return (int)strtol(label, NULL, 10);
}
