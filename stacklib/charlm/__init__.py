"""Character-level language models of Shakespeare's plays: the study behind the lecture's claims
about depth on real text."""
