/**
 * The hosts' bridges in one chunk, loaded only outside a plain browser (start.ts): each host's
 * module is small, and one chunk costs the first screen one import instead of three.
 */
import type { HostContext } from './start.ts';
import { startMiniProgram } from './miniprogram.ts';
import { startNativeApp } from './native-app.ts';
import { startWechat } from './wechat.ts';

export function startHost(context: HostContext): void | Promise<void> {
  switch (context.env.kind) {
    case 'app':
      return startNativeApp(context);
    case 'wechat':
      return startWechat(context);
    case 'wechat-miniprogram':
      return startMiniProgram(context);
    default:
      return undefined;
  }
}
