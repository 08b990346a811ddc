/*
 * Segments named on the command line (a label or a bare id), and what
 * shmids_stat_dims() and shmids_scan_dims() say of them that a listing
 * or a cleaner must report: shm-ls and shm-rm.
 */
#ifndef SHMIDS_OPERAND_H
#define SHMIDS_OPERAND_H

#include "shmids.h"

/*
 * A label or a bare id (shmid or path): 1 label, 0 id only, -1 neither.
 * id and label hold SHMIDS_LABEL_MAX + 1 bytes; the id is copied to id,
 * a label to label.
 */
int	 operand_parse(const char *arg, char *id, char *label);

/*
 * Report an operand operand_parse() refused; a lone word that could be
 * a segment name gets the way to its label (shm-ls -N) and, when prev
 * (the operand before it, a bare id) is not NULL, the label the user
 * may have meant, quoted for prog's command line.
 */
void	 operand_bad(const char *arg, const char *prog, const char *prev);
/* Does the label operand name another segment than si (ESTALE)? */
int	 operand_stale(const struct shmids_info *si, const char *label);
/*
 * Why si's header could not be read, when it is not for want of
 * permission (listed as "?", format-spec.md 7) but a failure to report
 * (ENOMEM under an address-space limit, say); NULL otherwise.
 */
const char *operand_unreadable(const struct shmids_info *si);
/* Report a store shmids_scan_dims() could not read (si->ours -2). */
void	 operand_store_error(const struct shmids_info *si);

#endif /* SHMIDS_OPERAND_H */
