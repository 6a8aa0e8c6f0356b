"""The error tree every expected failure belongs to.

Why a tree: the CLI must tell an *expected* failure (bad input, a locked knowledge base, a model
that refused) from a bug. Anything raised as an :class:`AutodidactError` is printed as one line
plus a hint and mapped to its exit code; anything else is a bug and may show a traceback.

::

    AutodidactError
    ├── InputError            bad user input: a file, flag or value (exit 2)
    │   ├── ConfigError       invalid settings file or value (names file, line and key)
    │   └── PathSafetyError   a path or name that would escape its folder
    ├── NotFoundError         a file, session or knowledge base that does not exist (exit 2)
    ├── KBError               the knowledge-base folder is unusable
    │   ├── LockedError       another writer holds the knowledge base
    │   └── DatabaseError     the PostgreSQL server of the team backend is unreachable or failed
    ├── IntegrityError        stored bytes fail verification (snapshot, event log, state)
    ├── SourceError           a source could not be fetched, extracted or stored
    │   └── BlockedError      a fetch refused by policy (address, scheme, size, type, robots)
    ├── ModelError            a model call failed after bounded retries
    │   ├── ModelAuthError    401/403: names the key variable, never the key
    │   ├── ContextLengthError  the prompt is too long; a task may shrink its input
    │   └── ModelOutputInvalid  the reply did not match the task's schema after one re-ask
    ├── BudgetExceeded        the next call would pass --max-cost / --max-tokens
    ├── ValidationFailed      an artifact failed its validator (evidence, plan)
    └── Interrupted           SIGINT/SIGTERM reached a safe point
"""

from __future__ import annotations


class AutodidactError(Exception):
    """Root of expected failures: one line of message, an optional hint, an exit code."""

    exit_code: int = 1

    def __init__(self, message: str, hint: str | None = None, exit_code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        if exit_code is not None:
            self.exit_code = exit_code

    def __str__(self) -> str:
        return self.message


class InputError(AutodidactError):
    """Bad input from the user: a file, flag or value they can fix."""

    exit_code = 2


class ConfigError(InputError):
    """An invalid settings file or value; the message names the file, line and key."""


class PathSafetyError(InputError):
    """A path or name that would write outside its folder."""


class NotFoundError(AutodidactError):
    """Something named by the user does not exist."""

    exit_code = 2


class KBError(AutodidactError):
    """The knowledge-base folder is missing pieces or unusable."""


class LockedError(KBError):
    """Another live process holds the single-writer lock."""

    exit_code = 3


class DatabaseError(KBError):
    """The team backend's PostgreSQL server cannot be reached or refused a statement (docs/team.md).

    Its message names the server with the password masked, never the password."""

    exit_code = 5


class IntegrityError(AutodidactError):
    """Stored bytes do not match what they claim to be."""


class SourceError(AutodidactError):
    """A source could not be fetched, extracted or stored."""


class BlockedError(SourceError):
    """A fetch refused by policy: address, scheme, size, time, type or robots.txt."""


class ModelError(AutodidactError):
    """A model call failed after its bounded retries."""


class ModelUnavailable(ModelError):
    """The server did not answer within the bounded retries (timeouts, refused connections, 5xx)."""


class ModelTimedOut(ModelUnavailable):
    """Every attempt ran out of time: the server is up but too slow for this call. Unlike a refused
    connection, the next (smaller) call may well succeed, so only this step falls back."""


class ModelAuthError(ModelError):
    """The server refused the credentials (401/403)."""


class ContextLengthError(ModelError):
    """The request exceeded the model's context window."""


class ModelOutputInvalid(ModelError):
    """The model's reply failed the task's schema even after one repair re-ask."""


class BudgetExceeded(AutodidactError):
    """The next model call would exceed the configured cost or token budget."""

    exit_code = 4


class TeamBudgetExceeded(BudgetExceeded):
    """The next model call would take the team past its caps (``[budget] team_max_*``, docs/team.md)."""


class ValidationFailed(AutodidactError):
    """An artifact failed its validator."""


class Interrupted(AutodidactError):
    """The user interrupted the run; it stopped at a safe point."""

    exit_code = 130
