/*
 * Case b's records of the segments, from what writers, readers and
 * cleaners report.
 */
#include "stress.h"
#include "case_b.h"

static size_t
hashstr(const char *s)
{
	size_t h = 2166136261u;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

struct brec *
brec_find(const char *label, int add)
{
	struct brec *r;
	size_t i = hashstr(label) & (B.hsize - 1);

	for (; B.hash[i] != -1; i = (i + 1) & (B.hsize - 1))
		if (strcmp(B.rec[B.hash[i]].label, label) == 0)
			return add ? NULL : &B.rec[B.hash[i]];
	if (!add || B.nrec == B.cap || strlen(label) > SHMIDS_LABEL_MAX)
		return NULL;
	B.hash[i] = (int)B.nrec;
	r = &B.rec[B.nrec++];
	memset(r, 0, sizeof(*r));
	strcpy(r->label, label);
	r->rmrun = -1;
	return r;
}

/* Non-blocking: a slow reader costs a skipped label, never a deadlock. */
static void
send_b(const struct brec *r)
{
	char line[SHMIDS_LABEL_MAX + 2];
	int fd = B.cmd[B.nextreader++ % BREADERS];
	size_t n;

	n = (size_t)snprintf(line, sizeof(line), "%s\n", r->label);
	if (fd != -1 && write(fd, line, n) == (ssize_t)n)
		B.sent++;
}

/*
 * A third of the sealed segments go to a reader at once (held while
 * they age), a third at about the age (the reader races the cleaner),
 * the rest are left to the cleaner alone.
 */
static void
to_reader(struct brec *r)
{
	size_t i = (size_t)(r - B.rec);

	if (i % 3 == 0)
		send_b(r);
	else if (i % 3 == 1) {
		B.dq[B.dqt] = (int)i;
		B.dqdue[B.dqt++] = mono() + (long long)B.age * NS / 2 +
		    (long long)(rnd() % (uint64_t)(B.age * NS));
	}
}

void
send_due(long long now)
{
	while (B.dqh < B.dqt && B.dqdue[B.dqh] <= now)
		send_b(&B.rec[B.dq[B.dqh++]]);
}

void
wline_b(char *s)
{
	struct brec *r;
	long long t;
	int e, off = 0;

	if (sscanf(s, "C %lld %n", &t, &off) == 1 && off > 0) {
		if (brec_find(s + off, 0) != NULL)
			violation("b: %s made twice", s + off);
		else if ((r = brec_find(s + off, 1)) == NULL)
			failure("b: no room to record %s", s + off);
		else {
			r->ctime = t;
			tot.made++;
		}
	} else if (sscanf(s, "S %lld %n", &t, &off) == 1 && off > 0) {
		if ((r = brec_find(s + off, 0)) == NULL)
			failure("b: sealed unknown %s", s + off);
		else {
			r->wdone = t;
			to_reader(r);
		}
	} else if (sscanf(s, "E %d", &e) == 1) {
		if (!table_full(e))
			failure("b: writer: %s", strerror(e));
	}
	else
		failure("b: bad writer report \"%s\"", s);
}

/*
 * Every other segment a reader got fresh we remove at once, as a user
 * would by label: the reader must go on reading it, and no cleaner may
 * report it removed again.
 */
static void
hold_line(struct brec *r, long long t, int ok)
{
	r->ha = t;
	tot.opened++;
	if (ok)
		tot.verified++;
	else
		violation("b: a reader opened %s to wrong data", r->label);
	if ((r - B.rec) % 6 != 0)
		return;
	/* ENOENT: a cleaner that listed it before the reader came was quicker. */
	if (shmids_remove(r->label) == 0) {
		r->rmrun = -2;
		tot.removed++;
		B.byhand++;
	} else if (errno != ENOENT)
		failure("b: remove %s: %s", r->label, strerror(errno));
}

static void
drop_line(struct brec *r, long long t, int ok, int gone)
{
	r->hd = t;
	if (!ok)
		violation("b: a reader lost %s's data%s", r->label,
		    gone ? " after its removal" : "");
	else {
		tot.verified++;
		B.readafter += gone != 0;
	}
}

void
rline_b(char *s)
{
	struct brec *r;
	long long t;
	int ok, gone, e, off = 0;

	if (sscanf(s, "H %lld %d %n", &t, &ok, &off) == 2 && off > 0 &&
	    (r = brec_find(s + off, 0)) != NULL)
		hold_line(r, t, ok);
	else if (sscanf(s, "D %lld %d %d %n", &t, &ok, &gone, &off) == 3 &&
	    off > 0 && (r = brec_find(s + off, 0)) != NULL)
		drop_line(r, t, ok, gone);
	else if (sscanf(s, "F %d %n", &e, &off) == 1 && off > 0 &&
	    (r = brec_find(s + off, 0)) != NULL) {
		r->herr = e;
		if (e == ENOENT)
			B.lostopen++;
		else
			violation("b: a reader could not open %s: %s",
			    r->label, strerror(e));
	} else
		failure("b: bad reader report \"%s\"", s);
}

/*
 * One line of shm-rm -v: "removed 'LABEL' (owner USER, age AGE)"
 * (format-spec.md 7); the label ends at the line's last "' (".
 */
void
rmev_line(const char *s, int run)
{
	static const char head[] = "removed '";
	struct rmev *n;
	const char *lab = s + sizeof(head) - 1, *end = NULL, *p;

	if (strncmp(s, head, sizeof(head) - 1) == 0)
		for (p = lab; (p = strstr(p, "' (owner ")) != NULL; p++)
			end = p;
	if (end == NULL || end[strlen(end) - 1] != ')' ||
	    (size_t)(end - lab) > SHMIDS_LABEL_MAX) {
		failure("b: shm-rm printed \"%s\"", s);
		return;
	}
	if (B.nev == B.capev) {
		B.capev = B.capev ? B.capev * 2 : 1024;
		if ((n = realloc(B.ev, B.capev * sizeof(*n))) == NULL) {
			failure("b: out of memory");
			return;
		}
		B.ev = n;
	}
	memcpy(B.ev[B.nev].label, lab, (size_t)(end - lab));
	B.ev[B.nev].label[end - lab] = '\0';
	B.ev[B.nev++].run = run;
}
