# Run by tests/r.bats with P (a name prefix of the test's own),
# SHMIDS_BIN (the tools under test) and PY (a python3 with numpy, or
# empty); alone (R CMD check), with defaults.  Every segment a test
# makes is named P...: clean() removes those, and only those.
P <- Sys.getenv("P", paste0("rt", Sys.getpid(), "."))
BIN <- Sys.getenv("SHMIDS_BIN", "")
PY <- Sys.getenv("PY", "")

nm <- function(s) paste0(P, s)

clean <- function() {
  d <- shm_ls()
  for (l in d$label[startsWith(d$name, P)])
    try(shm_remove(l), silent = TRUE)
}

# Every test removes its segments, whatever happens in it.
local_clean <- function(env = parent.frame()) {
  withr::defer(clean(), envir = env)
}

need_tools <- function() {
  if (BIN == "" || !file.exists(file.path(BIN, "shm-expand")))
    skip("no tools: set SHMIDS_BIN to the build's bin directory")
}

need_py <- function() {
  if (PY == "") skip("no python3 with numpy (Debian: python3-numpy)")
}

# tool(PROG, ARGS, INPUT): list(status, out = its standard output, err
# = its standard error); out is stderr's lines where stdout is empty.
tool <- function(prog, args = character(), input = NULL) {
  ef <- tempfile()
  on.exit(unlink(ef))
  out <- suppressWarnings(system2(file.path(BIN, prog), args, input = input,
                                  stdout = TRUE, stderr = ef))
  st <- attr(out, "status")
  attr(out, "status") <- NULL
  err <- readLines(ef)
  list(status = if (is.null(st)) 0L else st,
       out = if (length(out)) out else err, err = err)
}

py <- function(script, ...) {
  out <- suppressWarnings(system2(PY, c("-c", shQuote(script), ...),
                                  stdout = TRUE, stderr = TRUE,
                                  env = paste0("P=", P)))
  st <- attr(out, "status")
  if (!is.null(st)) stop("python failed: ", paste(out, collapse = "\n"))
  out
}

# The segment's state as R sees it: "in place", "copied", "read-write".
how <- function(x) sub("^.*shmids '[^']*' ", "",
                       utils::capture.output(.Internal(inspect(x)))[1])

# bits of a double, as 16 hex digits
bits <- function(x) {
  b <- writeBin(x, raw(), endian = "big")
  vapply(seq_along(x), function(i)
    paste(as.character(b[(8 * i - 7):(8 * i)]), collapse = ""), "")
}

# Column order (format-spec.md 2.7): skip where the tools or the Python
# module under test do not yet give a column-major table as meant.
need_colmajor_tools <- function() {
  lab <- shm_create(nm("probe"), matrix(c(1, 2, 3, 4), 2))
  on.exit(shm_remove(lab))
  e <- tool("shm-expand", input = paste("shmids", lab))
  if (!identical(e$out, c("1 3", "2 4")))
    skip("shm-expand does not write column-major tables as meant yet")
}
need_colmajor_py <- function() {
  lab <- shm_create(nm("probe"), matrix(c(1, 2, 3, 4), 2))
  on.exit(shm_remove(lab))
  out <- py(paste(sep = "\n", "import sys, shmids",
    "print(shmids.attach(sys.argv[1]).tolist())"), shQuote(lab))
  if (!identical(out, "[[1.0, 3.0], [2.0, 4.0]]"))
    skip("the Python module does not attach column-major tables as meant yet")
}
