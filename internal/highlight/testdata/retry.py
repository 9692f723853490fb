import errno

RETRYABLE_STATUS = {429, 500, 502, 503, 504}
RETRYABLE_ERRNO = {errno.ECONNRESET, errno.ECONNREFUSED, errno.ETIMEDOUT}


def should_retry(status=None, os_error=None, idempotent=True):
    """Return True when another attempt has a fair chance of succeeding."""
    if os_error is not None:
        if os_error.errno == errno.ETIMEDOUT and not idempotent:
            return False
        return os_error.errno in RETRYABLE_ERRNO
    if status is None:
        return False
    if status == 429:
        return True
    return idempotent and status in RETRYABLE_STATUS

import random
import time


def backoff_delays(base=0.1, ceiling=4.0, attempts=3, rng=random.random):
    """Yield one pause per retry, using full jitter on a doubling cap."""
    cap = base
    for _ in range(attempts - 1):
        yield rng() * cap
        cap = min(ceiling, cap * 2)


def sleep_within(deadline, seconds, clock=time.monotonic, sleep=time.sleep):
    """Sleep for seconds, but never past the deadline. Return False if no time is left."""
    remaining = deadline - clock()
    if remaining <= 0:
        return False
    sleep(min(seconds, remaining))
    return clock() < deadline

import logging
import time

log = logging.getLogger(__name__)


def call_with_retries(operation, deadline, attempts=3, classify=None, delays=None):
    """Run operation() until it succeeds, the attempts run out, or the deadline passes."""
    classify = classify or (lambda exc: getattr(exc, "retryable", False))
    delays = iter(delays if delays is not None else backoff_delays(attempts=attempts))
    last_error = None
    for attempt in range(1, attempts + 1):
        try:
            return operation()
        except Exception as exc:  # the classifier decides what is worth repeating
            last_error = exc
            if attempt == attempts or not classify(exc):
                break
            pause = next(delays, 0.0)
            log.warning("attempt %d failed (%s); retrying in %.2fs", attempt, exc, pause)
            if not sleep_within(deadline, pause):
                break
    raise last_error

