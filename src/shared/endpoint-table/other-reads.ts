/**
 * The other reads of the route table (../endpoints.ts), of pages and panels a first screen does not
 * show: recommended channels, notes, likers, search, topics, code, book lists, complaint reasons,
 * the site's settings, WeChat's share signature.
 */

export const recommendChannelList = { name: 'recommendChannelList', method: 'POST', path: '/serv/v1/channel/recommend_channel_list', auth: 'optional', kind: 'read' } as const;
export const noteList = { name: 'noteList', method: 'POST', path: '/serv/v1/user/note/list', auth: 'optional', kind: 'read' } as const;
export const likeList = { name: 'likeList', method: 'POST', path: '/serv/v1/likes/list', auth: 'optional', kind: 'read' } as const;
export const search = { name: 'search', method: 'POST', path: '/serv/v1/search', auth: 'optional', kind: 'read' } as const;
export const topicList = { name: 'topicList', method: 'POST', path: '/serv/v1/topic/list', auth: 'optional', kind: 'read' } as const;
export const topicDetail = { name: 'topicDetail', method: 'POST', path: '/serv/v1/topic/detail', auth: 'optional', kind: 'read' } as const;
export const codeDetail = { name: 'codeDetail', method: 'POST', path: '/serv/v1/code/detail', auth: 'optional', kind: 'read' } as const;
export const booklistDetail = { name: 'booklistDetail', method: 'POST', path: '/serv/v1/booklist/detail', auth: 'none', kind: 'read' } as const;
export const complainReasons = { name: 'complainReasons', method: 'POST', path: '/serv/v1/complain/reasons', auth: 'none', kind: 'read' } as const;
export const configList = { name: 'configList', method: 'POST', path: '/serv/v2/config/list', auth: 'none', kind: 'read' } as const;
export const wxShareSign = { name: 'wxShareSign', method: 'GET', path: '/wxmisc/wxshare/sign', auth: 'none', kind: 'read' } as const;
