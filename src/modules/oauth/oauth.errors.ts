/** An RFC 6749 / 7591 error: `{error, error_description}` with its status, not the REST error body. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = error === 'invalid_client' ? 401 : 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  body() {
    return { error: this.error, error_description: this.description };
  }
}
