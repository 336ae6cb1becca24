/** A toggle named a breach, email or data class this account's local store does not have. */
export class UnknownTargetError extends Error {
  override readonly name = 'UnknownTargetError';
}
