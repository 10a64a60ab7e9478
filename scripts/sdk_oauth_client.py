"""The official MCP Python SDK (`mcp`) as an OAuth client of
`mcp-reference serve --http` with `http.authorization`: its
`OAuthClientProvider` meets the 401 challenge, discovers the Protected
Resource Metadata and the authorization server's metadata, registers itself
(RFC 7591), and gets a token by authorization_code with PKCE. The redirect
handler is headless: it submits the authorization server's development login
and consent forms (oidc-provider's devInteractions, scripts/oidc/provider.mjs)
as mira with plain HTTP requests, and hands the code from the redirect to the
callback handler. Then what sdk_http_client.py asks, over Streamable HTTP:
tools/list and get_order A-104 (mira's order) and B-205 (tomas's: the
forbidden tool error).

Prints one JSON object per step, the last one the trace of every request the
SDK's HTTP client made (method, URL without its query, status), and exits 0
when every answer is as expected; 1 with one sentence otherwise. Run by
tests/oidc.rs (in .ci/run, with the SDK in target/py-mcp).

usage: python sdk_oauth_client.py URL
"""

import html
import http.cookiejar
import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

import anyio
from mcp.client.auth import OAuthClientProvider
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from sdk_http_client import as_mira, exit_with  # beside this script

# Never visited: the redirect handler stops at the authorization server's
# redirect to it and reads the code from the Location header.
REDIRECT_URI = "http://127.0.0.1/callback"


class Memory:
    """The SDK's TokenStorage, in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def login(authorization_url: str, user: str) -> str:
    """Follows the authorization request through the development login and
    consent forms as `user`; returns the redirect to REDIRECT_URI."""
    opener = urllib.request.build_opener(NoRedirects, urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def fetch(url: str, form: dict | None = None):
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            with opener.open(urllib.request.Request(url, data=data), timeout=10) as r:
                return r.status, r.headers, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read().decode()

    url = authorization_url
    for _ in range(12):
        status, headers, body = fetch(url)
        if status == 200:
            action = re.search(r'<form[^>]*action="([^"]+)"[^>]*method="post"', body)
            if action is None:
                raise RuntimeError(f"no form at {url}")
            fields = {html.unescape(n): html.unescape(v)
                      for n, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body)}
            if fields.get("prompt") == "login":
                fields.update(login=user, password="any")
            status, headers, body = fetch(urllib.parse.urljoin(url, html.unescape(action.group(1))), fields)
        if status not in (302, 303) or "location" not in headers:
            raise RuntimeError(f"the authorization server answered {status} at {url}: {body[:200]}")
        url = urllib.parse.urljoin(url, headers["location"])
        if url.startswith(REDIRECT_URI + "?"):
            return url
    raise RuntimeError("no redirect to the client after 12 steps")


async def main(url: str) -> int:
    redirected: list[str] = []
    asked: dict = {}

    async def redirect_handler(authorization_url: str) -> None:
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(authorization_url).query)
        asked.update({k: query[k][0] for k in ("scope", "resource", "code_challenge_method") if k in query})
        redirected.append(await anyio.to_thread.run_sync(login, authorization_url, "mira"))

    async def callback_handler() -> AuthorizationCodeResult:
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(redirected.pop()).query)
        if "code" not in query:
            raise RuntimeError(f"the authorization server redirected without a code: {query}")
        return AuthorizationCodeResult(code=query["code"][0], state=query.get("state", [None])[0],
                                       iss=query.get("iss", [None])[0])

    storage = Memory()
    oauth = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(client_name="mcp-reference sdk_oauth_client",
                                            redirect_uris=[REDIRECT_URI]),
        storage=storage,
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )
    trace: list[dict] = []

    async def seen(response) -> None:
        r = response.request
        trace.append({"method": r.method, "url": str(r.url.copy_with(query=None)), "status": response.status_code})

    http = create_mcp_http_client(auth=oauth)
    http.event_hooks = {"request": [], "response": [seen]}
    async with http, Client(streamable_http_client(url, http_client=http)) as client:
        code = await as_mira(client)
        if code:
            return code
    registered = storage.client
    granted = storage.tokens
    print(json.dumps({"oauth": {
        "registered": registered is not None and registered.client_id is not None,
        "token_endpoint_auth_method": registered.token_endpoint_auth_method if registered else None,
        "authorization_request": asked,
        "scope": granted.scope if granted else None,
        "requests": trace,
    }}))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    exit_with(main(sys.argv[1]))
