// A certificate authority made by openssl for one test run, and a server certificate it signed for
// localhost and 127.0.0.1: clients trust the CA (NODE_EXTRA_CA_CERTS, or fetchTrusting below),
// as a team trusts its internal CA.
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

export interface TestCa {
  /** PEM of the CA certificate, and its file. */
  ca: string;
  caFile: string;
  /** The server's certificate (PEM) and key files. */
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
}

const run = promisify(execFile);

export async function makeTestCa(dir: string): Promise<TestCa> {
  await mkdir(dir, { recursive: true });
  const file = (name: string) => join(dir, name);
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  await run("openssl", [
    "req",
    "-x509",
    ...ec,
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=claude-ide-bridge test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  await run("openssl", ["req", ...ec, "-keyout", file("server.key"), "-out", file("server.csr"), "-subj", "/CN=localhost"]);
  await writeFile(
    file("server.ext"),
    "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
  );
  await run("openssl", [
    "x509",
    "-req",
    "-in",
    file("server.csr"),
    "-CA",
    file("ca.pem"),
    "-CAkey",
    file("ca.key"),
    "-CAcreateserial",
    "-out",
    file("server.pem"),
    "-days",
    "2",
    "-extfile",
    file("server.ext"),
  ]);
  return {
    ca: await readFile(file("ca.pem"), "utf8"),
    caFile: file("ca.pem"),
    certFile: file("server.pem"),
    keyFile: file("server.key"),
    cert: await readFile(file("server.pem"), "utf8"),
    key: await readFile(file("server.key"), "utf8"),
  };
}
