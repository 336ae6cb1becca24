// A stand-in for the parts of `electron` the shell uses, as strict as Electron 45: it records what
// the code asks of Electron, lets a test play Electron's side (emit its events, click its menus),
// and refuses what Electron refuses. Every rule cites the line of Electron's source or typings it
// follows; docs/shell.md ("The strict fake") tables them. Sources: `electron.d.ts` of the
// installed electron@45 package, and electron/electron at 96f3996d8d3c (45.0.0 nightly) for
// `lib/` and `shell/`. Install with
//   vi.mock('electron', async () => (await import('./fakeElectron.ts')).electron);
// A fresh state is ready (unit tests exercise code that only runs after `ready`); tests of the
// main entry start from `resetElectron({ ready: false })` and play `app.ready()`.
import { fork as forkNode, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..', '..');

/** Thrown where Electron throws; `rule` names the row of the table in docs/shell.md. */
export class ElectronRuleError extends Error {
  readonly rule: string;
  constructor(message: string, rule: string, type: 'Error' | 'TypeError' = 'Error') {
    super(message);
    this.name = type;
    this.rule = rule;
  }
}

/** Every refusal since the last reset, so a test can assert none happened, even in a caught path. */
export const refusals: ElectronRuleError[] = [];

function refuse(message: string, rule: string, type: 'Error' | 'TypeError' = 'Error'): never {
  const error = new ElectronRuleError(message, rule, type);
  refusals.push(error);
  throw error;
}

function requireReady(message: string, rule: string, type: 'Error' | 'TypeError' = 'Error'): void {
  if (!state.app.isReady()) refuse(message, rule, type);
}

// shell/browser/api/electron_api_session.cc:1926, reached through lib/browser/api/session.ts:128.
const SESSION_BEFORE_READY = 'Session can only be received when app is ready';

const typings = readFileSync(path.join(root, 'node_modules', 'electron', 'electron.d.ts'), 'utf8');
const declared = new Map<string, Set<string>>();

/**
 * The event names electron.d.ts declares for a class, with its base class's. Electron's objects
 * are EventEmitters: a listener on an event the class never emits is accepted and never runs.
 */
export function declaredEvents(className: string): Set<string> {
  const cached = declared.get(className);
  if (cached) return cached;
  const start = typings.search(new RegExp(`\\n  (?:class|interface) ${className} extends [\\w.]+ \\{`));
  if (start === -1) throw new Error(`electron.d.ts declares no ${className}`);
  const block = typings.slice(start, typings.indexOf('\n  }\n', start));
  const names = new Set(['error', 'newListener', 'removeListener']);
  for (const match of block.matchAll(/\bon\(event: '([^']+)'/g)) names.add(match[1]!);
  if (/extends BaseWindow \{/.test(block)) for (const name of declaredEvents('BaseWindow')) names.add(name);
  declared.set(className, names);
  return names;
}

type Listener = Parameters<EventEmitter['on']>[1];

/** An EventEmitter that accepts listeners only for events its Electron class declares. */
class StrictEmitter extends EventEmitter {
  readonly #electronClass: string;
  constructor(electronClass: string) {
    super();
    this.#electronClass = electronClass;
  }
  #check(event: string | symbol): void {
    if (typeof event === 'string' && !declaredEvents(this.#electronClass).has(event)) {
      refuse(`${this.#electronClass} has no event '${event}' (electron.d.ts): the listener would never run`, 'events');
    }
  }
  override on(event: string | symbol, listener: Listener): this {
    this.#check(event);
    return super.on(event, listener);
  }
  override addListener(event: string | symbol, listener: Listener): this {
    return this.on(event, listener);
  }
  override once(event: string | symbol, listener: Listener): this {
    this.#check(event);
    return super.once(event, listener);
  }
  override prependListener(event: string | symbol, listener: Listener): this {
    this.#check(event);
    return super.prependListener(event, listener);
  }
}

/** Electron's event object for preventable events, with the details some events carry (url). */
export class FakeEvent {
  defaultPrevented = false;
  readonly url: string;
  constructor(details: { url?: string } = {}) {
    this.url = details.url ?? '';
  }
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

type PermissionRequestHandler = (contents: unknown, permission: string, callback: (granted: boolean) => void, details: unknown) => void;

export class FakeSession {
  permissionRequestHandler: PermissionRequestHandler | undefined;
  permissionCheckHandler: ((...args: unknown[]) => boolean) | undefined;
  devicePermissionHandler: ((...args: unknown[]) => boolean) | undefined;
  setPermissionRequestHandler(handler: PermissionRequestHandler): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: (...args: unknown[]) => boolean): void {
    this.permissionCheckHandler = handler;
  }
  setDevicePermissionHandler(handler: (...args: unknown[]) => boolean): void {
    this.devicePermissionHandler = handler;
  }
}

let nextFrameTreeNodeId = 1;

export class FakeWebFrame {
  url: string;
  parent: FakeWebFrame | null;
  readonly frameTreeNodeId = nextFrameTreeNodeId++;
  detached = false;
  destroyed = false;
  constructor(url: string, parent: FakeWebFrame | null = null) {
    this.url = url;
    this.parent = parent;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

export interface PostedToRenderer {
  channel: string;
  message: unknown;
  ports: FakeMessagePortMain[];
}

type WindowOpenHandler = (details: { url: string }) => { action: 'allow' | 'deny' };

export class FakeWebContents extends StrictEmitter {
  session: FakeSession;
  mainFrame = new FakeWebFrame('about:blank');
  windowOpenHandler: WindowOpenHandler | undefined;
  readonly posted: PostedToRenderer[] = [];
  destroyed = false;
  constructor(session: FakeSession) {
    super('WebContents');
    this.session = session;
  }
  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler;
  }
  postMessage(channel: string, message: unknown, ports: FakeMessagePortMain[] = []): void {
    // electron.d.ts WebContents.postMessage: transfer is MessagePortMain[]; the message is cloned.
    for (const port of ports) if (!(port instanceof FakeMessagePortMain)) refuse('transfer must hold MessagePortMain objects', 'message ports', 'TypeError');
    this.posted.push({ channel, message: structuredClone(message), ports });
  }
  loadURL(url: string): Promise<void> {
    this.emit('did-start-loading');
    this.mainFrame.url = url;
    return Promise.resolve();
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('destroyed');
  }
  /** Every `printToPDF` the shell asked for, with its options. */
  readonly printedToPdf: Record<string, unknown>[] = [];
  /**
   * lib/browser/print-to-pdf.ts (electron 96f3996d8d3c) `printToPDF`: `margins` must be an object
   * (l.20-23 checkType), `pageSize` a known paper name (any case) or `{ width, height }` numbers
   * (l.29-44), margins no larger than the page (l.76), and each option of its type (l.80-95:
   * TypeError "<name> must be a <type>"). Chromium's PDF is played by a minimal PDF document.
   */
  printToPDF(options: Record<string, unknown>): Promise<Buffer> {
    const check = (value: unknown, type: string, name: string) => {
      // `option ?? default` first (l.80-95): null takes the default as undefined does.
      if (value != null && typeof value !== type) refuse(`${name} must be a ${type}`, 'printToPDF options', 'TypeError');
    };
    const margins = (options.margins ?? {}) as Record<string, unknown>;
    check(options.margins, 'object', 'margins');
    const sizes: Record<string, [number, number]> = {
      letter: [8.5, 11],
      legal: [8.5, 14],
      tabloid: [11, 17],
      ledger: [17, 11],
      a0: [33.1, 46.8],
      a1: [23.4, 33.1],
      a2: [16.54, 23.4],
      a3: [11.7, 16.54],
      a4: [8.27, 11.7],
      a5: [5.83, 8.27],
      a6: [4.13, 5.83],
    };
    const pageSize = options.pageSize ?? 'letter';
    let paper: [number, number];
    if (typeof pageSize === 'string') paper = sizes[pageSize.toLowerCase()] ?? refuse(`Invalid pageSize ${pageSize}`, 'printToPDF options');
    else if (typeof pageSize === 'object' && pageSize !== null) {
      const { width, height } = pageSize as { width?: unknown; height?: unknown };
      if (typeof width !== 'number' || typeof height !== 'number') refuse('width and height properties are required for pageSize', 'printToPDF options', 'TypeError');
      paper = [width, height];
    } else refuse('pageSize must be a string or an object', 'printToPDF options', 'TypeError');
    // l.72-74 compare as JavaScript does: a string margin is NaN and never fits.
    const fits = (value: unknown, limit: number) => value === undefined || (value as number) <= limit;
    if (![margins.top, margins.bottom].every((v) => fits(v, paper[1])) || ![margins.left, margins.right].every((v) => fits(v, paper[0])))
      refuse('margins must be less than or equal to pageSize', 'printToPDF options');
    for (const name of ['landscape', 'displayHeaderFooter', 'printBackground', 'preferCSSPageSize', 'generateTaggedPDF', 'generateDocumentOutline']) check(options[name], 'boolean', name);
    for (const name of ['headerTemplate', 'footerTemplate', 'pageRanges']) check(options[name], 'string', name);
    check(options.scale, 'number', 'scale');
    for (const side of ['top', 'bottom', 'left', 'right']) check(margins[side], 'number', `margins.${side}`);
    this.printedToPdf.push(structuredClone(options));
    return Promise.resolve(Buffer.from(`%PDF-1.7\n% the fake's print of ${this.mainFrame.url}\n%%EOF\n`));
  }
  /** Plays Chromium: a navigation of the top frame, returning the event so a test sees if it was stopped. */
  navigate(url: string): FakeEvent {
    const event = new FakeEvent({ url });
    // electron.d.ts WebContents 'will-navigate': (details: Event<WebContentsWillNavigateEventParams>, url, isInPlace, isMainFrame, …).
    this.emit('will-navigate', event, url, false, true);
    return event;
  }
  /** Plays a server redirect of a navigation. */
  redirect(url: string): FakeEvent {
    const event = new FakeEvent({ url });
    this.emit('will-redirect', event, url, false, true);
    return event;
  }
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export class FakeBrowserWindow extends StrictEmitter {
  static instances: FakeBrowserWindow[] = [];
  readonly options: Record<string, unknown>;
  readonly webContents: FakeWebContents;
  visible = false;
  minimized = false;
  maximized = false;
  destroyed = false;
  bounds: Rect;
  #painted = false;
  constructor(options: Record<string, unknown> = {}) {
    super('BrowserWindow');
    // shell/browser/api/electron_api_browser_window.cc:315.
    requireReady('Cannot create BrowserWindow before app is ready', 'ready: BrowserWindow');
    this.options = options;
    this.webContents = new FakeWebContents(state.session.defaultSession);
    this.bounds = { x: Number(options.x ?? 100), y: Number(options.y ?? 100), width: Number(options.width ?? 800), height: Number(options.height ?? 600) };
    FakeBrowserWindow.instances.push(this);
    // As in Electron, every new web contents is announced on the app.
    state.app.emit('web-contents-created', new FakeEvent(), this.webContents);
  }
  static getAllWindows(): FakeBrowserWindow[] {
    return FakeBrowserWindow.instances.filter((window) => !window.destroyed);
  }
  loadURL(url: string): Promise<void> {
    const loaded = this.webContents.loadURL(url);
    // electron.d.ts BrowserWindow 'ready-to-show': emitted once, when the page first painted while hidden.
    if (!this.#painted) {
      this.#painted = true;
      setImmediate(() => {
        if (!this.destroyed) this.emit('ready-to-show');
      });
    }
    return loaded;
  }
  show(): void {
    this.visible = true;
    this.minimized = false;
    this.emit('show');
  }
  hide(): void {
    this.visible = false;
    this.emit('hide');
  }
  focus(): void {}
  restore(): void {
    this.minimized = false;
  }
  minimize(): void {
    this.minimized = true;
  }
  maximize(): void {
    this.maximized = true;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getNormalBounds(): Rect {
    return { ...this.bounds };
  }
  /** Plays the person moving or resizing the window. */
  setBounds(bounds: Partial<Rect>): void {
    this.bounds = { ...this.bounds, ...bounds };
    this.emit('move');
  }
  /** Plays the close button: 'close' may be prevented, otherwise the window goes. Says whether it went. */
  close(): boolean {
    if (this.destroyed) return true;
    const event = new FakeEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return false;
    this.destroyed = true;
    this.visible = false;
    this.webContents.destroy();
    this.emit('closed');
    return true;
  }
}

export class FakeApp extends StrictEmitter {
  isPackaged = false;
  singleInstance = true;
  quitCalls = 0;
  quitted = false;
  badgeCount = 0;
  appUserModelId: string | undefined;
  loginItemSettings: Record<string, unknown> | undefined;
  paths: Record<string, string> = { userData: '/tmp/breach-monitor-test', logs: '/tmp/breach-monitor-test/logs', documents: '/tmp/breach-monitor-test/Documents' };
  appPath = process.cwd();
  #isReady = false;
  #ready: () => void = () => {};
  readonly #whenReady = new Promise<void>((resolve) => (this.#ready = resolve));
  constructor() {
    super('App');
  }
  getPath(name: string): string {
    const value = this.paths[name];
    if (!value) throw new Error(`fake app has no path "${name}"`);
    return value;
  }
  getAppPath(): string {
    return this.appPath;
  }
  requestSingleInstanceLock(): boolean {
    return this.singleInstance;
  }
  isReady(): boolean {
    return this.#isReady;
  }
  whenReady(): Promise<void> {
    return this.#whenReady;
  }
  /** Plays Electron's `ready`: once, `ready` listeners first, then `whenReady()` (electron.d.ts App.whenReady). */
  ready(): void {
    if (this.#isReady) throw new Error('the fake app is already ready');
    this.#isReady = true;
    this.emit('ready', new FakeEvent(), {});
    this.#ready();
  }
  /**
   * Like Electron (electron.d.ts App.quit): `before-quit` first, which may be prevented; then every
   * window is closed, and a window that refuses to close cancels the quit; then `will-quit` (may be
   * prevented) and `quit`.
   */
  quit(): void {
    this.quitCalls++;
    if (this.quitted) return;
    const event = new FakeEvent();
    this.emit('before-quit', event);
    if (event.defaultPrevented) return;
    for (const window of FakeBrowserWindow.getAllWindows()) if (!window.close()) return;
    const willQuit = new FakeEvent();
    this.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) return;
    this.quitted = true;
    this.emit('quit', new FakeEvent(), 0);
  }
  setBadgeCount(count: number): boolean {
    this.badgeCount = count;
    return true;
  }
  setAppUserModelId(id: string): void {
    this.appUserModelId = id;
  }
  setLoginItemSettings(settings: Record<string, unknown>): void {
    this.loginItemSettings = settings;
  }
  getLoginItemSettings(): { openAtLogin: boolean; wasOpenedAtLogin: boolean } {
    return { openAtLogin: this.loginItemSettings?.openAtLogin === true, wasOpenedAtLogin: false };
  }
}

export type ProtocolHandler = (request: Request) => Promise<Response>;

export class FakeProtocol {
  readonly privileged: { scheme: string; privileges: Record<string, boolean> }[] = [];
  readonly handlers = new Map<string, ProtocolHandler>();
  #registeredPrivileged = false;
  registerSchemesAsPrivileged(schemes: { scheme: string; privileges: Record<string, boolean> }[]): void {
    // shell/browser/api/electron_api_protocol.cc:364-367.
    if (state.app.isReady()) refuse('protocol.registerSchemesAsPrivileged should be called before app is ready', 'before ready: registerSchemesAsPrivileged');
    // electron.d.ts Protocol.registerSchemesAsPrivileged: "can be called only once".
    if (this.#registeredPrivileged) refuse('protocol.registerSchemesAsPrivileged can be called only once', 'before ready: registerSchemesAsPrivileged');
    this.#registeredPrivileged = true;
    this.privileged.push(...schemes);
  }
  handle(scheme: string, handler: ProtocolHandler): void {
    // lib/browser/api/protocol.ts:196: `handle` goes through session.defaultSession.protocol.
    requireReady(SESSION_BEFORE_READY, 'ready: protocol.handle', 'TypeError');
    // lib/browser/api/protocol.ts:162.
    if (this.handlers.has(scheme)) refuse(`Failed to register protocol: ${scheme}`, 'protocol.handle once');
    this.handlers.set(scheme, handler);
  }
}

/** ipcMain's events are the app's own channel names (electron.d.ts IpcMain.on(channel, …)). */
export class FakeIpcMain extends EventEmitter {}

/** A sender as Electron describes it to ipcMain listeners. */
export function ipcEvent(sender: FakeWebContents, senderFrame: FakeWebFrame | null = sender.mainFrame): { sender: FakeWebContents; senderFrame: FakeWebFrame | null } {
  return { sender, senderFrame };
}

export interface FakeMenuItem {
  label?: string;
  type?: string;
  enabled?: boolean;
  checked?: boolean;
  click?: (item: { checked: boolean }) => void;
}

export class FakeMenu {
  readonly items: FakeMenuItem[];
  constructor(template: FakeMenuItem[]) {
    this.items = template.map((item) => ({ ...item }));
  }
  static buildFromTemplate(template: FakeMenuItem[]): FakeMenu {
    return new FakeMenu(template);
  }
  /** Plays a click: like Electron, a checkbox flips before its handler runs. */
  click(label: string): void {
    const item = this.items.find((candidate) => candidate.label === label);
    if (!item) throw new Error(`no menu item "${label}"`);
    if (item.enabled === false) throw new Error(`menu item "${label}" is disabled`);
    if (item.type === 'checkbox') item.checked = !item.checked;
    item.click?.({ checked: item.checked === true });
  }
}

export class FakeNativeImage {
  readonly path: string;
  template = false;
  constructor(path: string) {
    this.path = path;
  }
  static createFromPath(path: string): FakeNativeImage {
    return new FakeNativeImage(path);
  }
  /** electron.d.ts NativeImage.createFromPath: a file that cannot be read gives an empty image. */
  isEmpty(): boolean {
    return !existsSync(this.path);
  }
  setTemplateImage(template: boolean): void {
    this.template = template;
  }
}

export class FakeTray extends StrictEmitter {
  static instances: FakeTray[] = [];
  readonly image: FakeNativeImage;
  tooltip = '';
  menu: FakeMenu | undefined;
  destroyed = false;
  constructor(image: FakeNativeImage) {
    super('Tray');
    // shell/browser/api/electron_api_tray.cc:74.
    requireReady('Cannot create Tray before app is ready', 'ready: Tray');
    this.image = image;
    FakeTray.instances.push(this);
  }
  setToolTip(tooltip: string): void {
    this.tooltip = tooltip;
  }
  setContextMenu(menu: FakeMenu): void {
    this.menu = menu;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

export class FakeNotification extends StrictEmitter {
  static instances: FakeNotification[] = [];
  static supported = true;
  readonly options: { title: string; body: string; icon?: string };
  shown = false;
  constructor(options: { title: string; body: string; icon?: string }) {
    super('Notification');
    // shell/browser/api/electron_api_notification.cc:128.
    requireReady('Cannot create Notification before app is ready', 'ready: Notification');
    this.options = options;
    FakeNotification.instances.push(this);
  }
  static isSupported(): boolean {
    return FakeNotification.supported;
  }
  show(): void {
    this.shown = true;
  }
}

/**
 * One end of a MessageChannelMain (shell/browser/api/message_port.cc). Messages wait until
 * `start()`, then arrive asynchronously; `close()` emits 'close' on this end at once (:133-149)
 * and on the other end when it notices the pipe is gone (:164-165, asynchronously); posting on a
 * closed port is dropped; a port cannot be transferred through itself (:101-105).
 */
export class FakeMessagePortMain extends StrictEmitter {
  other: FakeMessagePortMain | undefined;
  started = false;
  closed = false;
  readonly #queue: unknown[] = [];
  constructor() {
    super('MessagePortMain');
  }
  postMessage(message: unknown, transfer: FakeMessagePortMain[] = []): void {
    transfer.forEach((port, index) => {
      if (port === this) refuse(`Port at index ${index} contains the source port.`, 'message ports');
    });
    const cloned = structuredClone(message);
    if (this.closed) return;
    const other = this.other!;
    other.#queue.push(cloned);
    other.#drain();
  }
  start(): void {
    this.started = true;
    this.#drain();
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close');
    const other = this.other;
    if (other) setImmediate(() => other.close());
  }
  #drain(): void {
    if (!this.started) return;
    queueMicrotask(() => {
      while (this.#queue.length > 0 && !this.closed) this.emit('message', { data: this.#queue.shift(), ports: [] });
    });
  }
}

export class FakeMessageChannelMain {
  readonly port1 = new FakeMessagePortMain();
  readonly port2 = new FakeMessagePortMain();
  constructor() {
    this.port1.other = this.port2;
    this.port2.other = this.port1;
  }
}

/** The module that gives a Node child the `process.parentPort` of a utility process. */
const PARENT_PORT_SHIM = pathToFileURL(path.join(import.meta.dirname, 'utilityParentPort.ts')).href;

/**
 * A utility process (lib/browser/api/utility-process.ts). With `FakeUtilityProcess.runReal`, the
 * entry really runs, in a Node child process whose `process.parentPort` relays over IPC the way
 * Electron's does (lib/utility/parent-port.ts); messages carrying ports are refused there, since
 * a port cannot cross a Node IPC channel. Otherwise a test plays the child (`send`, `exit`).
 */
export class FakeUtilityProcess extends StrictEmitter {
  static instances: FakeUtilityProcess[] = [];
  /** Run the entry for real (see the class comment). */
  static runReal = false;
  readonly modulePath: string;
  readonly args: string[];
  readonly options: Record<string, unknown>;
  readonly posted: { message: unknown; transfer: FakeMessagePortMain[] }[] = [];
  /** Every message the child sent to the main process. */
  readonly received: unknown[] = [];
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  killed = false;
  exited = false;
  readonly child: ChildProcess | undefined;
  constructor(modulePath: string, args: string[], options: Record<string, unknown>) {
    super('UtilityProcess');
    // lib/browser/api/utility-process.ts:16-17, :43-45, :60-86.
    if (!modulePath) refuse('Missing UtilityProcess entry script.', 'utilityProcess.fork');
    if (options.serviceName !== undefined && typeof options.serviceName !== 'string') refuse('serviceName must be a string.', 'utilityProcess.fork', 'TypeError');
    if (options.stdio !== undefined && !['pipe', 'inherit', 'ignore'].includes(String(options.stdio)) && !Array.isArray(options.stdio)) {
      refuse('stdio must be of the following values: inherit, pipe, ignore', 'utilityProcess.fork');
    }
    // shell/browser/api/electron_api_utility_process.cc:531-535.
    requireReady('utilityProcess cannot be created before app is ready.', 'ready: utilityProcess.fork', 'TypeError');
    this.modulePath = modulePath;
    this.args = args;
    this.options = options;
    FakeUtilityProcess.instances.push(this);
    this.on('message', (message: unknown) => this.received.push(message));
    this.child = FakeUtilityProcess.runReal ? this.#spawn() : undefined;
  }
  static fork(modulePath: string, args: string[] = [], options: Record<string, unknown> = {}): FakeUtilityProcess {
    return new FakeUtilityProcess(modulePath, args, options);
  }
  /**
   * lib/utility/init.ts loads the entry with Node's ESM loader (`runEntryPointWithESMLoader`), so
   * an ES module entry needs `.mjs` or a package.json with "type": "module" above it, as in Node.
   */
  #spawn(): ChildProcess {
    if (!existsSync(this.modulePath) || !statSync(this.modulePath).isFile()) refuse(`Cannot find module '${this.modulePath}'`, 'utilityProcess entry');
    const child = forkNode(this.modulePath, this.args, { execArgv: ['--import', PARENT_PORT_SHIM], stdio: ['ignore', 'pipe', 'pipe', 'ipc'], serialization: 'advanced' });
    child.stdout!.pipe(this.stdout);
    child.stderr!.pipe(this.stderr);
    child.on('message', (message) => this.emit('message', message));
    child.once('spawn', () => this.emit('spawn'));
    child.once('exit', (code, signal) => this.exit(code ?? (signal ? 1 : 0)));
    return child;
  }
  get pid(): number | undefined {
    return this.exited ? undefined : (this.child?.pid ?? 1);
  }
  /** After exit the handle is gone and messages are dropped (utility-process.ts:138-143). */
  postMessage(message: unknown, transfer: FakeMessagePortMain[] = []): void {
    if (this.exited) return;
    const cloned = structuredClone(message);
    this.posted.push({ message: cloned, transfer });
    if (this.child) {
      if (transfer.length > 0) throw new Error('the fake cannot carry MessagePorts into a real child process');
      this.child.send(cloned as Parameters<ChildProcess['send']>[0]);
    }
  }
  /** utility-process.ts:146-151: false once the process is gone. */
  kill(): boolean {
    if (this.exited) return false;
    this.killed = true;
    if (this.child) this.child.kill('SIGTERM');
    else this.exit(-1);
    return true;
  }
  /** Plays the process ending. */
  exit(code: number): void {
    if (this.exited) return;
    this.exited = true;
    // A process's output ends with it.
    this.stdout.end();
    this.stderr.end();
    this.emit('exit', code);
  }
  /** Plays the core sending a message to the main process. */
  send(message: unknown): void {
    this.emit('message', message);
  }
  messages(type?: string): unknown[] {
    return this.posted.map((entry) => entry.message).filter((message) => type === undefined || (message as { type: string }).type === type);
  }
}

/**
 * Reversible and visibly not plaintext; not cryptography. Before `ready` it answers as Electron
 * does (shell/browser/api/electron_api_safe_storage.cc): not available (:146-147), backend
 * "unknown" on Linux (:193-195), and encrypting or decrypting throws (:203-207, :231-235).
 */
export class FakeSafeStorage {
  available = true;
  backend = 'gnome_libsecret';
  isEncryptionAvailable(): boolean {
    return state.app.isReady() && this.available;
  }
  getSelectedStorageBackend(): string {
    return state.app.isReady() ? this.backend : 'unknown';
  }
  encryptString(plaintext: string): Buffer {
    if (!this.isEncryptionAvailable()) this.#unavailable('encrypting the text provided to safeStorage.encryptString. Encryption');
    return Buffer.concat([Buffer.from('v10'), Buffer.from(plaintext, 'utf8').map((byte) => byte ^ 0x5a)]);
  }
  decryptString(ciphertext: Buffer): string {
    if (!this.isEncryptionAvailable()) this.#unavailable('decrypting the ciphertext provided to safeStorage.decryptString. Decryption');
    if (ciphertext.subarray(0, 3).toString() !== 'v10') throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return Buffer.from(ciphertext.subarray(3).map((byte) => byte ^ 0x5a)).toString('utf8');
  }
  #unavailable(what: string): never {
    requireReady('safeStorage cannot be used before app is ready', 'ready: safeStorage');
    throw new Error(`Error while ${what} is not available.`);
  }
}

export class FakeIpcRenderer extends EventEmitter {
  readonly sent: { channel: string; args: unknown[] }[] = [];
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  /** Plays the main process posting to this renderer. */
  deliver(channel: string, ports: unknown[] = []): void {
    this.emit(channel, { ports, sender: this }, undefined);
  }
}

export class FakeContextBridge {
  readonly exposed = new Map<string, unknown>();
  exposeInMainWorld(key: string, api: unknown): void {
    if (this.exposed.has(key)) throw new Error(`"${key}" is already exposed`);
    this.exposed.set(key, api);
  }
}

/**
 * shell/renderer/api/electron_api_web_utils.cc (electron 96f3996d8d3c) `GetPathForFile`: a File
 * the person chose in a file input or dropped has its path on disk; any other Blob (a File made
 * in JavaScript) answers '' (`blob.Path()` is empty); what is not a Blob throws this TypeError.
 * docs/api/web-utils.md: called in the preload, the File handed over from the page through
 * contextBridge (its example). A test plays the person's choice with `choose`.
 */
export class FakeWebUtils {
  readonly #chosen = new WeakMap<Blob, string>();
  /** The person picked this file in an `<input type="file">`: it now points at `path`. */
  choose(file: File, path: string): File {
    this.#chosen.set(file, path);
    return file;
  }
  getPathForFile(file: File): string {
    if (!(file instanceof Blob)) refuse('getPathForFile expected to receive a File object but one was not provided', 'webUtils.getPathForFile', 'TypeError');
    return this.#chosen.get(file) ?? '';
  }
}

interface FakeScreen {
  workAreas: Rect[];
  getAllDisplays(): { workArea: Rect }[];
}

/** What the person does in a save dialog the test expects: choose a path, or close it. */
export type SaveDialogAnswer = { filePath: string } | 'cancel';

/** lib/browser/api/dialog.ts (electron 96f3996d8d3c): the save dialog. */
export class FakeDialog {
  /** Answers for the next save dialogs, in order; a dialog nobody scripted fails the test. */
  readonly saveAnswers: SaveDialogAnswer[] = [];
  readonly saveDialogs: { parent: FakeBrowserWindow | null; options: Record<string, unknown> }[] = [];
  showSaveDialog(windowOrOptions: FakeBrowserWindow | Record<string, unknown>, maybeOptions?: Record<string, unknown>): Promise<{ canceled: boolean; filePath: string }> {
    // l.62-66 checkAppInitialized, called first by saveDialog (l.89).
    requireReady('dialog module can only be used after app is ready', 'ready: dialog');
    // l.277-286: a window first, or the options alone.
    const parent = windowOrOptions instanceof FakeBrowserWindow ? windowOrOptions : null;
    const options = (parent ? maybeOptions : (windowOrOptions as Record<string, unknown>)) ?? { title: 'Save' };
    // l.105-109.
    const strings: [string, string][] = [
      ['title', 'Title'],
      ['buttonLabel', 'Button label'],
      ['defaultPath', 'Default path'],
      ['message', 'Message'],
      ['nameFieldLabel', 'Name field label'],
    ];
    for (const [key, label] of strings) if (options[key] !== undefined && typeof options[key] !== 'string') refuse(`${label} must be a string`, 'dialog options', 'TypeError');
    this.saveDialogs.push({ parent, options: structuredClone(options) });
    const answer = this.saveAnswers.shift();
    if (answer === undefined) throw new Error('a save dialog opened that the test did not expect');
    // electron.d.ts SaveDialogReturnValue: "If the dialog is canceled, this will be an empty string."
    return Promise.resolve(answer === 'cancel' ? { canceled: true, filePath: '' } : { canceled: false, filePath: answer.filePath });
  }
}

interface State {
  app: FakeApp;
  dialog: FakeDialog;
  protocol: FakeProtocol;
  session: { readonly defaultSession: FakeSession };
  shell: { opened: string[]; openExternal(url: string): Promise<void> };
  ipcMain: FakeIpcMain;
  safeStorage: FakeSafeStorage;
  powerMonitor: EventEmitter;
  net: { online: boolean; isOnline(): boolean };
  screen: FakeScreen;
  contextBridge: FakeContextBridge;
  ipcRenderer: FakeIpcRenderer;
  webUtils: FakeWebUtils;
}

function freshState(): State {
  const net = {
    online: true,
    isOnline() {
      return net.online;
    },
  };
  const displays: FakeScreen = {
    workAreas: [{ x: 0, y: 0, width: 1920, height: 1080 }],
    getAllDisplays() {
      return displays.workAreas.map((workArea) => ({ workArea }));
    },
  };
  // lib/browser/api/screen.ts: a proxy that creates the screen on first touch of any property, and
  // shell/browser/api/electron_api_screen.cc:205-208 throws when that is before ready.
  const screen = new Proxy(displays, {
    get(target, property, receiver) {
      requireReady("The 'screen' module can't be used before the app 'ready' event", 'ready: screen');
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  const shell = {
    opened: [] as string[],
    openExternal(url: string) {
      shell.opened.push(url);
      return Promise.resolve();
    },
  };
  const defaultSession = new FakeSession();
  const session = {
    get defaultSession() {
      requireReady(SESSION_BEFORE_READY, 'ready: session', 'TypeError');
      return defaultSession;
    },
  };
  const powerMonitor = new StrictEmitter('PowerMonitor');
  return {
    app: new FakeApp(),
    dialog: new FakeDialog(),
    protocol: new FakeProtocol(),
    session,
    shell,
    ipcMain: new FakeIpcMain(),
    safeStorage: new FakeSafeStorage(),
    powerMonitor,
    net,
    screen,
    contextBridge: new FakeContextBridge(),
    ipcRenderer: new FakeIpcRenderer(),
    webUtils: new FakeWebUtils(),
  };
}

let state = freshState();
state.app.ready();

/** The current fake objects; replaced by `resetElectron()`. */
export function fake(): State {
  return state;
}

/** A fresh Electron for each test: ready unless `{ ready: false }` (then the test plays `app.ready()`). */
export function resetElectron(options: { ready?: boolean } = {}): State {
  state = freshState();
  if (options.ready !== false) state.app.ready();
  refusals.length = 0;
  FakeBrowserWindow.instances = [];
  FakeTray.instances = [];
  FakeNotification.instances = [];
  FakeNotification.supported = true;
  FakeUtilityProcess.instances = [];
  FakeUtilityProcess.runReal = false;
  return state;
}

/**
 * What `vi.mock('electron')` returns. Getters, so modules that imported `app` once still reach
 * the current fake after a reset.
 */
export const electron = {
  get app() {
    return state.app;
  },
  get protocol() {
    return state.protocol;
  },
  get dialog() {
    return state.dialog;
  },
  get session() {
    return state.session;
  },
  get shell() {
    return state.shell;
  },
  get ipcMain() {
    return state.ipcMain;
  },
  get safeStorage() {
    return state.safeStorage;
  },
  get powerMonitor() {
    return state.powerMonitor;
  },
  get net() {
    return state.net;
  },
  get screen() {
    return state.screen;
  },
  get contextBridge() {
    return state.contextBridge;
  },
  get ipcRenderer() {
    return state.ipcRenderer;
  },
  get webUtils() {
    return state.webUtils;
  },
  BrowserWindow: FakeBrowserWindow,
  Menu: FakeMenu,
  Tray: FakeTray,
  Notification: FakeNotification,
  nativeImage: FakeNativeImage,
  MessageChannelMain: FakeMessageChannelMain,
  utilityProcess: FakeUtilityProcess,
};
