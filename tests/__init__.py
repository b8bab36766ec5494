"""The lab's tests, laid out as the code is (tests/<package>/ for balance/<package>/)."""
