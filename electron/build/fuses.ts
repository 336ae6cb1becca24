import { flipFuses, FuseState, FuseV1Options, FuseVersion, getCurrentFuseWire, type FuseV1Config } from '@electron/fuses';
import path from 'node:path';
import type { AfterPackContext } from 'electron-builder';

/**
 * Fuses flipped in the packaged Electron binary. Every fuse is set explicitly
 * (`strictlyRequireAllFuses`), so an Electron upgrade that adds one fails packaging until
 * someone decides its value here.
 */
export const FUSES = {
  version: FuseVersion.V1,
  strictlyRequireAllFuses: true,
  /** The binary cannot be started as a plain Node (ELECTRON_RUN_AS_NODE); the core uses utilityProcess, not fork. */
  [FuseV1Options.RunAsNode]: false,
  /** Chromium's cookie store is encrypted with the OS key, as in Chrome. */
  [FuseV1Options.EnableCookieEncryption]: true,
  /** NODE_OPTIONS and NODE_EXTRA_CA_CERTS are ignored: no code injection through the environment. */
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  /** --inspect and friends are ignored: no debugger attached to a released app. */
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  /** app.asar is checked against the hash embedded at packaging (macOS and Windows). */
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  /** Only app.asar is loaded, never a loose app/ folder planted beside it. */
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
  /** file:// gets no privileges beyond a web page's; the renderer is served from app://. */
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  /** Electron's default: WebAssembly bounds checks through trap handlers. */
  [FuseV1Options.WasmTrapHandlers]: true,
} as const satisfies FuseV1Config;

/** Arch.arm64 in electron-builder's enum. */
const ARM64 = 3;

/**
 * electron-builder's afterPack hook (runs before signing). It flips with this project's
 * @electron/fuses rather than electron-builder's helper: the copy bundled with electron-builder 26
 * (1.8) predates the WasmTrapHandlers fuse and cannot set every fuse of Electron 45. The wire is
 * read back afterwards to prove the flip.
 */
export async function afterPack(context: AfterPackContext): Promise<void> {
  const binary = binaryPath(context);
  // Flipping fuses breaks the ad-hoc signature of an unsigned arm64 macOS build; the flip redoes it.
  const resetAdHocDarwinSignature = context.electronPlatformName === 'darwin' && context.arch === ARM64;
  await flipFuses(binary, { ...FUSES, resetAdHocDarwinSignature });
  await verifyFuses(binary);
}

/** Where electron-builder put the Electron binary (the same rule as its own fuse helper). */
export function binaryPath(context: Pick<AfterPackContext, 'appOutDir' | 'electronPlatformName' | 'packager'>): string {
  const { appOutDir, electronPlatformName, packager } = context;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') return path.join(appOutDir, `${packager.appInfo.productFilename}.app`);
  if (electronPlatformName === 'win32') return path.join(appOutDir, `${packager.appInfo.productFilename}.exe`);
  return path.join(appOutDir, (packager as unknown as { executableName: string }).executableName);
}

/** Throws unless every fuse in the binary has the value in `FUSES`. */
export async function verifyFuses(binary: string): Promise<void> {
  const wire = await getCurrentFuseWire(binary);
  const wrong = Object.values(FuseV1Options)
    .filter((option): option is FuseV1Options => typeof option === 'number')
    .filter((option) => {
      const expected = FUSES[option] ? FuseState.ENABLE : FuseState.DISABLE;
      return (wire as Partial<Record<FuseV1Options, FuseState>>)[option] !== expected;
    });
  if (wrong.length > 0) throw new Error(`fuses not set in ${binary}: ${wrong.map((option) => FuseV1Options[option]).join(', ')}`);
}
