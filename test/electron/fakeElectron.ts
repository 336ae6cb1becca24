// A thin, honest stand-in for the parts of `electron` the shell uses: it records what the code
// asks of Electron and lets a test play Electron's side (emit its events, click its menus). It
// does not imitate behaviour the shell does not rely on. Install with
//   vi.mock('electron', async () => (await import('./fakeElectron.ts')).electron);
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';

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

export class FakeWebContents extends EventEmitter {
  session: FakeSession;
  mainFrame = new FakeWebFrame('about:blank');
  windowOpenHandler: WindowOpenHandler | undefined;
  readonly posted: PostedToRenderer[] = [];
  destroyed = false;
  constructor(session: FakeSession) {
    super();
    this.session = session;
  }
  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler;
  }
  postMessage(channel: string, message: unknown, ports: FakeMessagePortMain[] = []): void {
    this.posted.push({ channel, message, ports });
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
  /** Plays Chromium: a navigation of the top frame, returning the event so a test sees if it was stopped. */
  navigate(url: string): FakeEvent {
    const event = new FakeEvent({ url });
    this.emit('will-navigate', event, url);
    return event;
  }
  /** Plays a server redirect of a navigation. */
  redirect(url: string): FakeEvent {
    const event = new FakeEvent({ url });
    this.emit('will-redirect', event, url);
    return event;
  }
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export class FakeBrowserWindow extends EventEmitter {
  static instances: FakeBrowserWindow[] = [];
  readonly options: Record<string, unknown>;
  readonly webContents: FakeWebContents;
  visible = false;
  minimized = false;
  maximized = false;
  destroyed = false;
  bounds: Rect;
  constructor(options: Record<string, unknown> = {}) {
    super();
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
    return this.webContents.loadURL(url);
  }
  show(): void {
    this.visible = true;
    this.minimized = false;
  }
  hide(): void {
    this.visible = false;
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
  /** Plays the close button: 'close' may be prevented, otherwise the window goes. */
  close(): void {
    const event = new FakeEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.destroyed = true;
    this.visible = false;
    this.webContents.destroy();
    this.emit('closed');
  }
}

export class FakeApp extends EventEmitter {
  isPackaged = false;
  singleInstance = true;
  quitCalls = 0;
  quitted = false;
  badgeCount = 0;
  appUserModelId: string | undefined;
  loginItemSettings: Record<string, unknown> | undefined;
  paths: Record<string, string> = { userData: '/tmp/breach-monitor-test', logs: '/tmp/breach-monitor-test/logs' };
  appPath = process.cwd();
  #ready: () => void = () => {};
  readonly #whenReady = new Promise<void>((resolve) => (this.#ready = resolve));
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
  whenReady(): Promise<void> {
    return this.#whenReady;
  }
  /** Plays Electron's `ready`. */
  ready(): void {
    state.readyCalled = true;
    this.#ready();
    this.emit('ready');
  }
  /** Like Electron: 'before-quit' may be prevented; otherwise the app is gone. */
  quit(): void {
    this.quitCalls++;
    const event = new FakeEvent();
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.quitted = true;
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
  registerSchemesAsPrivileged(schemes: { scheme: string; privileges: Record<string, boolean> }[]): void {
    if (state.readyCalled) throw new Error('registerSchemesAsPrivileged can only be called before the app is ready');
    this.privileged.push(...schemes);
  }
  handle(scheme: string, handler: ProtocolHandler): void {
    if (this.handlers.has(scheme)) throw new Error(`scheme "${scheme}" is already handled`);
    this.handlers.set(scheme, handler);
  }
}

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
  setTemplateImage(template: boolean): void {
    this.template = template;
  }
}

export class FakeTray extends EventEmitter {
  static instances: FakeTray[] = [];
  readonly image: FakeNativeImage;
  tooltip = '';
  menu: FakeMenu | undefined;
  destroyed = false;
  constructor(image: FakeNativeImage) {
    super();
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

export class FakeNotification extends EventEmitter {
  static instances: FakeNotification[] = [];
  static supported = true;
  readonly options: { title: string; body: string; icon?: string };
  shown = false;
  constructor(options: { title: string; body: string; icon?: string }) {
    super();
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
 * One end of a MessageChannelMain. Messages wait until `start()`, then arrive asynchronously, as
 * in Electron; closing one end tells both.
 */
export class FakeMessagePortMain extends EventEmitter {
  other: FakeMessagePortMain | undefined;
  started = false;
  closed = false;
  readonly #queue: unknown[] = [];
  postMessage(message: unknown): void {
    if (this.closed) return;
    const other = this.other!;
    other.#queue.push(structuredClone(message));
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
    this.other?.close();
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

export class FakeUtilityProcess extends EventEmitter {
  static instances: FakeUtilityProcess[] = [];
  readonly modulePath: string;
  readonly args: string[];
  readonly options: Record<string, unknown>;
  readonly posted: { message: unknown; transfer: FakeMessagePortMain[] }[] = [];
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  killed = false;
  exited = false;
  constructor(modulePath: string, args: string[], options: Record<string, unknown>) {
    super();
    this.modulePath = modulePath;
    this.args = args;
    this.options = options;
    FakeUtilityProcess.instances.push(this);
  }
  static fork(modulePath: string, args: string[] = [], options: Record<string, unknown> = {}): FakeUtilityProcess {
    return new FakeUtilityProcess(modulePath, args, options);
  }
  postMessage(message: unknown, transfer: FakeMessagePortMain[] = []): void {
    if (this.exited) throw new Error('postMessage to an exited utility process');
    this.posted.push({ message: structuredClone(message), transfer });
  }
  kill(): boolean {
    this.killed = true;
    this.exit(-1);
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

/** Reversible and visibly not plaintext; not cryptography. */
export class FakeSafeStorage {
  available = true;
  backend = 'gnome_libsecret';
  isEncryptionAvailable(): boolean {
    return this.available;
  }
  getSelectedStorageBackend(): string {
    return this.backend;
  }
  encryptString(plaintext: string): Buffer {
    return Buffer.concat([Buffer.from('v10'), Buffer.from(plaintext, 'utf8').map((byte) => byte ^ 0x5a)]);
  }
  decryptString(ciphertext: Buffer): string {
    if (ciphertext.subarray(0, 3).toString() !== 'v10') throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return Buffer.from(ciphertext.subarray(3).map((byte) => byte ^ 0x5a)).toString('utf8');
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

interface State {
  app: FakeApp;
  protocol: FakeProtocol;
  session: { defaultSession: FakeSession };
  shell: { opened: string[]; openExternal(url: string): Promise<void> };
  ipcMain: FakeIpcMain;
  safeStorage: FakeSafeStorage;
  powerMonitor: EventEmitter;
  net: { online: boolean; isOnline(): boolean };
  screen: { workAreas: Rect[]; getAllDisplays(): { workArea: Rect }[] };
  contextBridge: FakeContextBridge;
  ipcRenderer: FakeIpcRenderer;
  readyCalled: boolean;
}

function freshState(): State {
  const net = {
    online: true,
    isOnline() {
      return net.online;
    },
  };
  const screen = {
    workAreas: [{ x: 0, y: 0, width: 1920, height: 1080 }],
    getAllDisplays() {
      return screen.workAreas.map((workArea) => ({ workArea }));
    },
  };
  const shell = {
    opened: [] as string[],
    openExternal(url: string) {
      shell.opened.push(url);
      return Promise.resolve();
    },
  };
  return {
    app: new FakeApp(),
    protocol: new FakeProtocol(),
    session: { defaultSession: new FakeSession() },
    shell,
    ipcMain: new FakeIpcMain(),
    safeStorage: new FakeSafeStorage(),
    powerMonitor: new EventEmitter(),
    net,
    screen,
    contextBridge: new FakeContextBridge(),
    ipcRenderer: new FakeIpcRenderer(),
    readyCalled: false,
  };
}

let state = freshState();

/** The current fake objects; replaced by `resetElectron()`. */
export function fake(): State {
  return state;
}

/** A fresh Electron for each test. */
export function resetElectron(): State {
  state = freshState();
  FakeBrowserWindow.instances = [];
  FakeTray.instances = [];
  FakeNotification.instances = [];
  FakeNotification.supported = true;
  FakeUtilityProcess.instances = [];
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
  BrowserWindow: FakeBrowserWindow,
  Menu: FakeMenu,
  Tray: FakeTray,
  Notification: FakeNotification,
  nativeImage: FakeNativeImage,
  MessageChannelMain: FakeMessageChannelMain,
  utilityProcess: FakeUtilityProcess,
};
