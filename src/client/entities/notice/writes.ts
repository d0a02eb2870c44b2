/**
 * The writes that change a user's notices: marking them read (from /notice, offline too: the
 * outbox keeps the latest and sends it once) and the switches of which kinds they receive.
 */
import type { QueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/endpoints.ts';
import type { NoticeSettings } from '#shared/schemas.ts';
import { asOneCall, oneCall, switchWrite, type WriteDefinition } from '../outbox/definition.ts';
import { cachedNoticeSettings, hasUnreadNotices, setNoticeSettings, showNoticesRead } from './cache.ts';

export interface NoticeReadInput {
  /** The newest notice seen; absent: all. */
  up_to_id?: number;
}

export const noticeRead: WriteDefinition<NoticeReadInput, NoticeReadInput, { count: number }> = {
  make(queryClient, input, viewer) {
    if (!hasUnreadNotices(queryClient, viewer.uid)) return null;
    // A later look at the list covers an earlier one still waiting.
    return { data: input, about: '', replaces: 'notice-read' };
  },
  ...asOneCall((write) =>
    oneCall(endpoints.noticeRead, { ...(write.data.up_to_id === undefined ? {} : { up_to_id: write.data.up_to_id }), client_id: write.id })),
  show: (queryClient, write) => showNoticesRead(queryClient, write.uid, write.data.up_to_id),
  settle: (_queryClient, write, answer) => [{ type: 'noticesRead', viewer: write.uid, count: answer.count }],
  whenRefused: 'drop',
};

export type NoticeKind = keyof NoticeSettings;
export const NOTICE_KIND_NAMES: Record<NoticeKind, string> = { comment: '收到评论', like: '收到赞', follow: '新增粉丝' };

export interface NoticeSettingInput {
  kind: NoticeKind;
  on: boolean;
}

function settingsWith(queryClient: QueryClient, viewer: number, input: NoticeSettingInput, on: boolean): NoticeSettings {
  return { ...(cachedNoticeSettings(queryClient, viewer) ?? { comment: true, like: true, follow: true }), [input.kind]: on };
}

export const noticeSetting = switchWrite<NoticeSettingInput, NoticeSettings>({
  target: (input) => `notice-setting:${input.kind}`,
  isOn: (queryClient, input, viewer) => cachedNoticeSettings(queryClient, viewer)?.[input.kind],
  show: (queryClient, input, on, viewer) => setNoticeSettings(queryClient, viewer, settingsWith(queryClient, viewer, input, on)),
  call: (input, clientId) => oneCall(endpoints.noticeSettings, { [input.kind]: input.on, client_id: clientId }),
  changes: (queryClient, input, on, viewer, answer) => [
    { type: 'noticeSettings', viewer, settings: answer ?? settingsWith(queryClient, viewer, input, on) },
  ],
  about: (_queryClient, input) => NOTICE_KIND_NAMES[input.kind],
});

