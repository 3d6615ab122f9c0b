// "securesocket" (modules/crypt/securesocket): TLS over the Socket, passed to
// the HTTP Request as `Socket`. The Request's `host` becomes the TLS server
// name; CA certificates come from the build's resources (modules/crypt/data).

declare class SecureSocket {
  constructor(options: { [key: string]: unknown });
}
export default SecureSocket;
