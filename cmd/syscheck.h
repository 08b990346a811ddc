/*
 * What the system will do to segments: the settings that destroy them
 * behind their writer's back, and the ones that make them fast.
 */
#ifndef SHMIDS_SYSCHECK_H
#define SHMIDS_SYSCHECK_H

/* Warn on stderr where a setting will destroy segments silently. */
void	 syscheck_warn(void);
/* The report of shm-ls -l, on stdout. */
void	 syscheck_report(void);

#endif /* SHMIDS_SYSCHECK_H */
