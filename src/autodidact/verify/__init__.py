"""``autodidact verify``: one sweep that proves a knowledge base or report folder still holds.

Why a separate package: verification reads every artifact every other package writes (snapshots,
evidence, wiki, reports, state, plans, debate logs), so it sits above all of them and below the CLI.
It never repairs anything; it only reports, so it is safe to run at any time, even mid-run.
"""

from autodidact.verify.checks import Finding, VerifyReport, verify_folder

__all__ = ["Finding", "VerifyReport", "verify_folder"]
