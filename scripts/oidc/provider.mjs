// The authorization server of tests/oidc.rs (and of its Python SDK client):
// the npm package oidc-provider on loopback, configured through its
// documented configuration API. It issues JWT access tokens (RFC 9068,
// typ at+jwt) for the resource indicators (RFC 8707) given with --resource,
// with `aud` the indicator; serves `client_credentials`, and
// `authorization_code` with PKCE S256 through its development interactions
// (the devInteractions login and consent forms, which a test submits with
// plain HTTP requests); and lets clients register (RFC 7591), as the MCP
// Python SDK's OAuth client does.
//
// usage: node provider.mjs --modules DIR [--port N] [--resource URL]... [--brief-ttl S]
//
//   --modules DIR   where `npm ci` installed scripts/oidc/package-lock.json
//                   (DIR/node_modules/oidc-provider; .ci/run: target/oidc,
//                   exported as MCP_OIDC_PROVIDER)
//   --port N        the loopback port (default 0: any free one); a restart on
//                   the same port keeps the issuer identifier
//   --resource URL  a resource server it issues tokens for (repeatable)
//   --brief-ttl S   the access-token lifetime of the client `brief`
//                   (client_credentials), in seconds (default 4)
//
// Prints one JSON line on stdout once it listens: {"issuer": ..., "kid": ...},
// the kid of its signing key, which is new at every start (a key rotation is
// a restart). Plain http on 127.0.0.1 only: the tests never leave loopback.

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

function parse(argv) {
  const out = { modules: undefined, port: 0, resources: [], briefTtl: 4 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    switch (flag) {
      case '--modules': out.modules = value; break;
      case '--port': out.port = Number(value); break;
      case '--resource': out.resources.push(value); break;
      case '--brief-ttl': out.briefTtl = Number(value); break;
      default: throw new Error(`unknown argument ${flag}`);
    }
  }
  if (!out.modules) throw new Error('--modules DIR is required');
  return out;
}

const args = parse(process.argv.slice(2));
const entry = createRequire(resolve(args.modules, 'package.json')).resolve('oidc-provider');
const { default: Provider, errors } = await import(pathToFileURL(entry).href);

// A fresh RSA signing key per start: its kid names it in every token.
const kid = `rsa-${randomBytes(8).toString('hex')}`;
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' };

// The two end users of the book-orders data (data/config.example.json's
// owners): the login of the development form is the account id and `sub`.
const ACCOUNTS = new Set(['mira', 'tomas']);
const SCOPE = 'orders:read';
const REDIRECT = 'http://127.0.0.1/callback';

const server = createServer();
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(args.port, '127.0.0.1', resolve);
});
const issuer = `http://127.0.0.1:${server.address().port}`;

const configuration = {
  clients: [
    // A public client (no secret): authorization_code, PKCE required.
    {
      client_id: 'app',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: [REDIRECT],
    },
    // Confidential clients acting for themselves (client_credentials);
    // `mira` shares an account's name (DEC36: it is still no user).
    ...['service', 'courier', 'brief', 'mira'].map((id) => ({
      client_id: id,
      client_secret: `${id}-secret`,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      scope: SCOPE,
    })),
  ],
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  scopes: ['openid', 'offline_access', SCOPE],
  pkce: { required: () => true },
  async findAccount(ctx, sub) {
    if (!ACCOUNTS.has(sub)) return undefined;
    return { accountId: sub, async claims() { return { sub }; } };
  },
  features: {
    devInteractions: { enabled: true },
    clientCredentials: { enabled: true },
    registration: { enabled: true },
    resourceIndicators: {
      enabled: true,
      useGrantedResource: async () => true,
      async getResourceServerInfo(ctx, resourceIndicator) {
        if (!args.resources.includes(resourceIndicator)) throw new errors.InvalidTarget();
        return {
          scope: SCOPE,
          audience: resourceIndicator,
          accessTokenFormat: 'jwt',
          accessTokenTTL: 600,
          jwt: { sign: { alg: 'RS256', kid } },
        };
      },
    },
  },
  ttl: {
    AccessToken: 600,
    AuthorizationCode: 60,
    ClientCredentials: (ctx, token, client) => (client.clientId === 'brief' ? args.briefTtl : 600),
    Grant: 600,
    IdToken: 600,
    Interaction: 600,
    RefreshToken: 600,
    Session: 600,
  },
};

const provider = new Provider(issuer, configuration);
server.on('request', provider.callback());
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdout.write(`${JSON.stringify({ issuer, kid })}\n`);
