"""Analyses built on the lab's runs: game theory over round robins (:mod:`.games`,
:mod:`.metagame`) and searching table values towards a target (:mod:`.autobalance`)."""
