import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { PORT_DELIVERY_CHANNEL, PORT_REQUEST_CHANNEL, type MonitorApi } from '../../shared/ipc/monitorApi.ts';
import { createMonitorClient, type WebPort } from './monitorClient.ts';

// Sandboxed preload: only contextBridge, ipcRenderer and webUtils are used, and the port to the
// core stays in this closure. The page sees `window.monitor` with three functions and nothing else.
const client = createMonitorClient({ requestPort: () => ipcRenderer.send(PORT_REQUEST_CHANNEL) });

ipcRenderer.on(PORT_DELIVERY_CHANNEL, (event) => {
  const port = event.ports[0];
  if (port) client.adoptPort(port as unknown as WebPort);
});

const monitor = {
  invoke: (channel, args) => client.api.invoke(channel, args),
  on: (event, listener) => client.api.on(event, listener),
  // A chosen file's path (File.path is gone since Electron 32): the page hands it to the core,
  // which reads the file itself, so an export's bytes never pass through the page.
  pathForFile: (file: File) => webUtils.getPathForFile(file),
} satisfies MonitorApi;

contextBridge.exposeInMainWorld('monitor', monitor);
ipcRenderer.send(PORT_REQUEST_CHANNEL);
