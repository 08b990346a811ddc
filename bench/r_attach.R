# bench/r_attach.R (make bench-r): R getting 10^7 doubles and summing
# them, five ways in one run, median of 5 runs each, as ratios to
# shmids' attach + sum:
#   shmids     shm_attach(label) + sum(): the segment in place (ALTREP)
#   bigmemory  attach.big.matrix(descriptor) + sum(x[, 1]): bigmemory
#              has no in-place sum of its own (biganalytics' colsum is
#              not installed here), so x[, 1] copies the column into R
#   shmids.a   shm_attach() alone (maps every page: format-spec.md 2.5)
#   sum.only   sum() of the vector already in R: the floor
#   bigmem.a   attach.big.matrix(descriptor) alone (maps no page)
#   readRDS    readRDS() of the vector (uncompressed) + sum()
#   fread      data.table::fread() of the same numbers as CSV + sum()
# Every source is made before the timing; the page cache is warm for
# all.  Target (issue 29): shmids' attach + sum within 1.2x of
# bigmemory's attach + sum, and both far ahead of text.
suppressMessages({
  library(shmids)
  have_dt <- requireNamespace("data.table", quietly = TRUE)
  have_bm <- requireNamespace("bigmemory", quietly = TRUE)
})
n <- 1e7
reps <- 5
set.seed(1)
x <- rnorm(n)
dir <- tempfile("r_attach")
dir.create(dir)
name <- paste0("bench-r-", Sys.getpid())
lab <- shm_create(name, x)
on.exit({ try(shm_remove(lab), silent = TRUE); unlink(dir, recursive = TRUE) })
rds <- file.path(dir, "x.rds")
saveRDS(x, rds, compress = FALSE)
if (have_dt) {
  csv <- file.path(dir, "x.csv")
  data.table::fwrite(data.table::data.table(x = x), csv)
}
if (have_bm) {
  bm <- bigmemory::big.matrix(n, 1, type = "double", shared = TRUE)
  bm[, 1] <- x
  desc <- bigmemory::describe(bm)
}
s0 <- sum(x)

med <- function(f) {
  t <- numeric(reps)
  for (i in seq_len(reps)) {
    invisible(gc())
    t[i] <- system.time(v <- f())[["elapsed"]]
    if (!is.null(v) && !isTRUE(all.equal(v, s0)))
      stop("wrong sum: ", v, " not ", s0)
  }
  median(t)
}

rows <- list()
rows$shmids <- med(function() sum(shm_attach(lab)))
rows$shmids.a <- med(function() { shm_attach(lab); NULL })
rows$sum.only <- med(function() sum(x))
if (have_bm) {
  rows$bigmemory <- med(function() {
    b <- bigmemory::attach.big.matrix(desc)
    sum(b[, 1])
  })
  rows$bigmem.a <- med(function() { bigmemory::attach.big.matrix(desc); NULL })
}
rows$readRDS <- med(function() sum(readRDS(rds)))
if (have_dt)
  rows$fread <- med(function() sum(data.table::fread(csv, showProgress = FALSE)$x))

base <- rows$shmids
cat(sprintf("r_attach: 10^7 doubles, attach/read + sum, median of %d (seconds; ratio to shmids)\n", reps))
for (k in names(rows))
  cat(sprintf("  %-10s %8.4f s  %7.2fx\n", k, rows[[k]], rows[[k]] / base))
if (!have_bm) cat("  bigmemory: not installed (Debian: r-cran-bigmemory)\n")
if (!have_dt) cat("  fread: data.table not installed (Debian: r-cran-data.table)\n")
if (have_bm) {
  r <- rows$shmids / rows$bigmemory
  cat(sprintf("target: shmids attach + sum within 1.2x of bigmemory's: %.2fx, %s\n",
              r, if (r <= 1.2) "met" else "not met"))
}
