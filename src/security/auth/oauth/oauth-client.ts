// What the authorization server knows of a client, however it learned it.
export interface OAuthClient {
  clientId: string;
  clientName: string | undefined;
  redirectUris: string[];
  /** Registered here (RFC 7591), or described by its metadata document (an https client_id). */
  kind: "registered" | "metadata-document";
}
