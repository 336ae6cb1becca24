// The sign-in module's public surface, for the core's handlers and the hosts that wire it.
export { AuthService, type AuthServiceOptions, type AuthState, type AuthStatus, type SignedInAccount, type SignInRequest } from './AuthService.ts';
export { ClientConfig, ConfigError, loadClientConfig, parseClientConfig, type ClientConfigInput, type RedirectConfig } from './config.ts';
export { NOT_AUTHORIZED_MESSAGE, RefreshRefusedError, SignInError, SignInRequiredError, type SignInErrorCode } from './errors.ts';
export { silentLogger, type AuthLogger, type LogFields } from './log.ts';
export type { BrowserOpener } from './SignInFlow.ts';
export { TokenManager, type TokenManagerState } from './TokenManager.ts';
export { chooseSecretStore, NOT_REMEMBERED_WARNING, type ChooseSecretStoreOptions, type SecretStoreChoice } from './secrets/chooseSecretStore.ts';
export { EncryptedFileSecretStore, type SafeStorageLike } from './secrets/EncryptedFileSecretStore.ts';
export { KEYCHAIN_SERVICE, KeytarSecretStore } from './secrets/KeytarSecretStore.ts';
export { MemorySecretStore } from './secrets/MemorySecretStore.ts';
export { SecretStoreUnavailableError, type SecretKey, type SecretStore, type SecretStoreKind } from './secrets/SecretStore.ts';
