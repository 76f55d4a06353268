/**
 * A network like a company's, on 127.0.0.1: a certificate authority of the test's own (made now with
 * openssl; Node cannot make certificates), an https front for a plain http server (the sandbox), and a
 * CONNECT proxy that logs what it is asked and every byte that crosses it.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import type { AddressInfo } from 'node:net';

/** A host name that exists only in the test proxy's table (`.test` is reserved: RFC 6761). */
export const PROXIED_HOST = 'gateway.test';

export interface TestCertificates {
  /** The CA's certificate: what a company installs on its machines. */
  readonly caPem: string;
  /** The CA's certificate in a file, for `NODE_EXTRA_CA_CERTS`. */
  readonly caFile: string;
  /** The server's key and certificate, for `gateway.test`, `localhost` and 127.0.0.1, signed by the CA. */
  readonly keyPem: string;
  readonly certPem: string;
  /** Removes the files. */
  remove(): void;
}

export function makeTestCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alephium-tls-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Alephium test CA',
  );
  openssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', `/CN=${PROXIED_HOST}`);
  fs.writeFileSync(
    file('server.ext'),
    [
      `subjectAltName=DNS:${PROXIED_HOST},DNS:localhost,IP:127.0.0.1`,
      'basicConstraints=CA:FALSE',
      'extendedKeyUsage=serverAuth',
    ].join('\n'),
  );
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  );
  return {
    caPem: fs.readFileSync(file('ca.pem'), 'utf8'),
    caFile: file('ca.pem'),
    keyPem: fs.readFileSync(file('server.key'), 'utf8'),
    certPem: fs.readFileSync(file('server.pem'), 'utf8'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface Closable {
  close(): Promise<void>;
}

function tracked(server: net.Server): { sockets: Set<net.Socket>; close: () => Promise<void> } {
  const sockets = new Set<net.Socket>();
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return { sockets, close };
}

function keep(sockets: Set<net.Socket>, ...list: net.Socket[]): void {
  for (const s of list) {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  }
}

/** https on 127.0.0.1 in front of the plain http server on `targetPort` (TLS ends here). */
export async function startTlsFront(
  certificates: Pick<TestCertificates, 'keyPem' | 'certPem'>,
  targetPort: number,
): Promise<Closable & { port: number }> {
  const server = tls.createServer({ key: certificates.keyPem, cert: certificates.certPem });
  const { sockets, close } = tracked(server);
  server.on('secureConnection', (socket) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    keep(sockets, socket, upstream);
    socket.pipe(upstream).pipe(socket);
  });
  // A client that refuses the certificate aborts the handshake: not the test's failure.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close };
}

export interface ProxyLogEntry {
  /** `CONNECT gateway.test:443`, or the request line of anything else it was sent. */
  readonly line: string;
  readonly headers: http.IncomingHttpHeaders;
}

export interface TestProxy extends Closable {
  readonly url: string;
  readonly log: readonly ProxyLogEntry[];
  /** Every byte the extension sent through the tunnels, for "the key never crossed in clear". */
  sentThrough(): Buffer;
}

/**
 * A CONNECT proxy on 127.0.0.1. It tunnels only to names of its own table (`gateway.test` to 127.0.0.1):
 * a request that reached the gateway by that name went through it. With `authorization`, a CONNECT
 * without that Proxy-Authorization gets 407. Anything but CONNECT gets 405 (and is logged).
 */
export async function startConnectProxy(options: { authorization?: string } = {}): Promise<TestProxy> {
  const log: ProxyLogEntry[] = [];
  const sent: Buffer[] = [];
  const proxy = http.createServer((req, res) => {
    log.push({ line: `${req.method} ${req.url}`, headers: req.headers });
    res.writeHead(405).end();
  });
  const { sockets, close } = tracked(proxy);
  proxy.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    log.push({ line: `CONNECT ${req.url}`, headers: req.headers });
    keep(sockets, client);
    if (options.authorization && req.headers['proxy-authorization'] !== options.authorization) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
      return;
    }
    const target = /^([^:]+):(\d+)$/.exec(req.url ?? '');
    if (!target || target[1] !== PROXIED_HOST) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = net.connect(Number(target[2]), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) {
        sent.push(head);
        upstream.write(head);
      }
      client.on('data', (chunk: Buffer) => sent.push(chunk));
      client.pipe(upstream).pipe(client);
    });
    keep(sockets, upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    log,
    sentThrough: () => Buffer.concat(sent),
    close,
  };
}
