# Rscript tests/r/testthat_file.R FILE: one testthat file of r/'s,
# for tests/r.bats; exits 1 if an expectation failed or errored.
library(testthat)
library(shmids)
r <- as.data.frame(test_file(commandArgs(TRUE)[1], reporter = "summary",
                             stop_on_failure = FALSE))
bad <- sum(r$failed) + sum(r$error)
cat("failed:", bad, "passed:", sum(r$passed), "skipped:", sum(r$skipped),
    "\n")
quit(status = as.integer(bad > 0))
