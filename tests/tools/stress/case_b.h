/*
 * case_b.h: what the files of case b share: the records of the
 * segments, the cleaner runs and their removals, and the case's state.
 */
#ifndef CASE_B_H
#define CASE_B_H

struct brec {
	char		 label[SHMIDS_LABEL_MAX + 1];
	long long	 ctime;		/* kernel's shm_ctime, wall seconds */
	long long	 wdone;		/* writer still attached then; 0 not yet */
	long long	 ha, hd;	/* a reader held it from ha to hd */
	int		 herr;		/* errno of a reader's failed open */
	int		 rmrun;		/* cleaner run that removed it, or -1 */
};

struct brun {
	long long	 t0, t1;	/* monotonic, around the whole run */
	long long	 w1;		/* wall seconds at its end */
};

struct bact {
	int		 run;
	pid_t		 pid;
	struct lines	 l;
};

struct rmev {
	char		 label[SHMIDS_LABEL_MAX + 1];
	int		 run;
};

struct bstate {
	unsigned	 age;		/* shm-rm -s, seconds */
	struct brec	*rec;
	size_t		 nrec, cap;
	int		*hash;
	size_t		 hsize;
	struct brun	*run;
	size_t		 nrun, caprun;
	struct bact	 act[2];
	size_t		 nact;
	long long	 next;		/* earliest start of the next run */
	struct rmev	*ev;
	size_t		 nev, capev;
	int		*dq;		/* records to send to a reader late */
	long long	*dqdue;
	size_t		 dqh, dqt;
	int		 cmd[BREADERS];
	unsigned	 nextreader;
	unsigned long	 sent, readafter, lostopen, byclean, byhand;
};
extern struct bstate B;

/* case_b_kids.c */
void	 writer_b(int rep, long long end, unsigned cap);
void	 reader_b(int cmd, int rep);

/* case_b_recs.c */
struct brec *brec_find(const char *label, int add);
void	 send_due(long long now);
void	 wline_b(char *s);
void	 rline_b(char *s);
void	 rmev_line(const char *s, int run);

#endif /* CASE_B_H */
