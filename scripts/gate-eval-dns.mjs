// Preloaded into the assess process by scripts/gate-eval.mjs (node --import): name resolution
// from bench/gate-eval/hosts.json instead of the network. Why: the evaluation must give the same
// answers on a machine without DNS (CI, this sandbox) and must never send a query off the machine,
// while the HTTP assessor still sees public names resolve to public addresses (and a few hostile
// names resolve to loopback, private or metadata addresses, as real DNS rebinding names do).
// Unknown names fail at once with ENOTFOUND, like a resolver that has no record.
import dns from 'node:dns';
import { readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const hostsFile = process.env.GATE_EVAL_HOSTS ?? new URL('../bench/gate-eval/hosts.json', import.meta.url);
const table = JSON.parse(readFileSync(hostsFile, 'utf8')).hosts;

function addressesOf(hostname) {
  // getaddrinfo ignores one trailing dot; two dots do not resolve.
  const name = String(hostname).toLowerCase().replace(/\.$/, '');
  const found = table[name];
  if (found === undefined) {
    const error = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    error.code = 'ENOTFOUND';
    error.hostname = hostname;
    throw error;
  }
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

function pick(entries, options) {
  const family = typeof options === 'number' ? options : (options?.family ?? 0);
  const kept = family === 0 ? entries : entries.filter((entry) => entry.family === family);
  if (kept.length === 0) {
    const error = new Error('getaddrinfo ENOTFOUND');
    error.code = 'ENOTFOUND';
    throw error;
  }
  return kept;
}

async function lookupPromise(hostname, options) {
  const entries = pick(addressesOf(hostname), options);
  return typeof options === 'object' && options?.all ? entries : entries[0];
}

function lookupCallback(hostname, options, callback) {
  const done = typeof options === 'function' ? options : callback;
  const opts = typeof options === 'function' ? {} : options;
  lookupPromise(hostname, opts).then(
    (result) =>
      process.nextTick(() => (Array.isArray(result) ? done(null, result) : done(null, result.address, result.family))),
    (error) => process.nextTick(() => done(error)),
  );
}

function refuse(hostname) {
  const error = new Error(`queryA ENOTFOUND ${hostname} (gate-eval: no DNS)`);
  error.code = 'ENOTFOUND';
  return error;
}

dns.lookup = lookupCallback;
dns.promises.lookup = lookupPromise;
for (const name of ['resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCname', 'reverse']) {
  dns[name] = (hostname, ...rest) => process.nextTick(() => rest.at(-1)(refuse(hostname)));
  dns.promises[name] = async (hostname) => {
    throw refuse(hostname);
  };
}
// The HTTP tool resolves through c-ares (dns.Resolver, cancellable) after reading /etc/hosts
// itself: its resolve4/resolve6 answer from the same table, one family each.
function resolveFamily(family) {
  return async function resolveFromTable(hostname) {
    const name = String(hostname).toLowerCase().replace(/\.$/, '');
    if (table[name] === undefined) throw refuse(hostname);
    const found = table[name].filter((address) => address.includes(':') === (family === 6));
    if (found.length === 0) {
      const error = new Error(`query ENODATA ${hostname}`);
      error.code = 'ENODATA';
      throw error;
    }
    return found;
  };
}
dns.promises.Resolver.prototype.resolve4 = resolveFamily(4);
dns.promises.Resolver.prototype.resolve6 = resolveFamily(6);
syncBuiltinESMExports();
