"""The service's refusals: `ServiceError` and its kinds, and the HTTP status of each (`STATUS`), shared by the
routes and the sockets. Unaware of HTTP beyond that number."""

from __future__ import annotations

import math
from typing import Any, ClassVar

STATUS = {"not_found": 404, "unauthorized": 401, "forbidden": 403, "conflict": 409, "invalid": 422,
          "rate_limited": 429, "busy": 503}
"""The HTTP status of each kind of refusal (socket answers carry the same number)."""


class ServiceError(Exception):
    """A refused request; `kind` tells the API which status to answer with, `extra` goes into the body."""

    kind: ClassVar[str] = "invalid"

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


class NotFound(ServiceError):
    kind = "not_found"


class Unauthorized(ServiceError):
    kind = "unauthorized"


class Forbidden(ServiceError):
    kind = "forbidden"


class Conflict(ServiceError):
    kind = "conflict"


class Invalid(ServiceError):
    kind = "invalid"


class RateLimited(ServiceError):
    """Over a limit of one client (an address, a seat): 429 with `Retry-After`, in whole seconds."""

    kind = "rate_limited"

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = max(1, math.ceil(retry_after))


Limited = RateLimited
"""The creation limits' name for it."""


class Full(RateLimited):
    """Over a limit of the whole server: 503 with `Retry-After`."""

    kind = "busy"
