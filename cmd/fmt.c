/*
 * Output formats shared by the listings: ls -h sizes, JSON strings and
 * ISO 8601 times.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fmt.h"

void
fmt_human(unsigned long long n, char *buf, size_t len)
{
	static const char units[] = "KMGTPE";
	unsigned long long u = 1024, whole, tenths;
	int k = 0;

	if (n < 1024) {
		snprintf(buf, len, "%llu", n);
		return;
	}
	/* The unit that leaves less than 1024 of it, rounded up. */
	while (k < 5 && n / u + (n % u != 0) >= 1024) {
		u *= 1024;
		k++;
	}
	whole = n / u;
	/* n % u < u <= 2^60: ten times it, plus u, still fits. */
	tenths = ((n % u) * 10 + u - 1) / u;
	if (whole < 10 && whole * 10 + tenths < 100) {
		whole = whole * 10 + tenths;
		snprintf(buf, len, "%llu.%llu%c", whole / 10, whole % 10,
		    units[k]);
		return;
	}
	whole += n % u != 0;
	snprintf(buf, len, "%llu%c", whole, units[k]);
}

/*
 * The length of the well-formed UTF-8 sequence (RFC 3629: shortest
 * form, no surrogates, at most U+10FFFF) of two or more bytes at p, or
 * 0; its code point in *cpp unless cpp is NULL.  A name from the
 * password database in UTF-8 stays readable in JSON and in the listing.
 */
size_t
fmt_utf8_len(const char *p, size_t len, unsigned long *cpp)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t n, i;
	unsigned long cp;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	if (cpp != NULL)
		*cpp = cp;
	return n;
}

void
fmt_json_str(FILE *fp, const char *s, size_t len)
{
	unsigned long cp;
	size_t i, n;

	putc('"', fp);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x80 && (n = fmt_utf8_len(s + i, len - i, &cp)) > 0) {
			fwrite(s + i, 1, n, fp);
			i += n - 1;
		} else if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c == '\t')
			fputs("\\t", fp);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(fp, "\\u%04x", c);
		else
			putc(c, fp);
	}
	putc('"', fp);
}

void
fmt_iso(time_t t, char *buf, size_t len)
{
	struct tm tmb;

	if (gmtime_r(&t, &tmb) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tmb) == 0)
		snprintf(buf, len, "%lld", (long long)t);
}

/*
 * A C1 control (U+0080 to U+009F) moves a terminal's cursor as ESC
 * does: escaped like the bytes of an invalid sequence.  Cut between
 * cells, never inside an escape or a sequence.
 */
void
fmt_text(const char *s, size_t cols, char *buf, size_t len)
{
	char cell[8];
	unsigned long cp;
	size_t i, n, cw, w = 0, out = 0, fit = 0;

	for (i = 0; s[i] != '\0'; i += n) {
		unsigned char c = (unsigned char)s[i];

		n = 1, cw = 1;
		if (c >= 0x20 && c < 0x7f)
			cell[0] = (char)c, cell[1] = '\0';
		else if (c >= 0x80 && (n = fmt_utf8_len(s + i, strlen(s + i),
		    &cp)) > 0 && cp >= 0xa0)
			memcpy(cell, s + i, n), cell[n] = '\0';
		else {
			n = 1, cw = 4;
			snprintf(cell, sizeof(cell), "\\%03o", c);
		}
		/* Too wide: back to the last cell that leaves room for '+'. */
		if ((cols > 0 && w + cw > cols) || out + strlen(cell) + 2 > len) {
			out = fit;
			buf[out++] = '+';
			break;
		}
		memcpy(buf + out, cell, strlen(cell));
		out += strlen(cell);
		w += cw;
		if (cols == 0 || w < cols)
			fit = out;
	}
	buf[out] = '\0';
}

size_t
fmt_width(const char *s)
{
	size_t w = 0;

	for (; *s != '\0'; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}
