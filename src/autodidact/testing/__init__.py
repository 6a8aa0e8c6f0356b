"""Loopback fakes and corpora for tests and benchmarks; never imported by the package."""
