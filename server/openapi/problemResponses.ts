// The problem+json answers the breach-alert API's paths share (RFC 9457 bodies, RFC 6750 challenge).

export const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

export const unauthorized = {
  ...problem('Missing, invalid or expired token'),
  headers: { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'RFC 6750 bearer challenge' } },
};
