"""The readable scalar percentile reference: one fight at a time, the oracle the kernel is tested
against (seed 004): ``fight`` (a trial and its rounds), ``strike`` (one attack and its
defences), ``groups`` (who attacks whom), each the counterpart of the kernel module of the
same name in :mod:`balance.rules.percentile.kernel`."""
