"""`Authorization: Token KEY` with django-rest-knox's hashed tokens (docs/contracts.md "The HTTP
API"): a key that is not text answers 401 like any wrong key, never 500."""

from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from rest_framework import exceptions


class TokenAuthentication(KnoxTokenAuthentication):
    def authenticate_credentials(self, token):
        try:
            token.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise exceptions.AuthenticationFailed("Invalid token.") from exc
        return super().authenticate_credentials(token)


class TokenScheme(KnoxTokenScheme):
    """The OpenAPI schema's description of the token header (drf-spectacular)."""

    target_class = "competition.auth.TokenAuthentication"
