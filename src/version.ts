// Two version numbers (seed ADR-0001): the npm package version changes every release; the bridge
// protocol version (what the extension and shim must agree on) changes rarely.
export const PACKAGE_VERSION = "0.1.0";
export const BRIDGE_PROTOCOL_VERSION = "1.1.0";
export const SERVER_NAME = "claude-ide-bridge";
