/** The reads of the route table (../endpoints.ts), but the session's, the notices' and moderation's. */

export const channelDetail = { name: 'channelDetail', method: 'POST', path: '/serv/v1/channel/detail', auth: 'optional', kind: 'read' } as const;
export const recommendChannelList = { name: 'recommendChannelList', method: 'POST', path: '/serv/v1/channel/recommend_channel_list', auth: 'optional', kind: 'read' } as const;
export const categoryChannel = { name: 'categoryChannel', method: 'POST', path: '/serv/v1/channel/category_channel', auth: 'optional', kind: 'read' } as const;
export const channelPosts = { name: 'channelPosts', method: 'POST', path: '/serv/v1/channel/posts', auth: 'optional', kind: 'read' } as const;
export const userChannelList = { name: 'userChannelList', method: 'POST', path: '/serv/v1/channel/user_channel_list', auth: 'optional', kind: 'read' } as const;
export const userInfo = { name: 'userInfo', method: 'POST', path: '/serv/v1/user/info', auth: 'optional', kind: 'read' } as const;
export const userPosts = { name: 'userPosts', method: 'POST', path: '/serv/v1/user/posts', auth: 'optional', kind: 'read' } as const;
export const noteList = { name: 'noteList', method: 'POST', path: '/serv/v1/user/note/list', auth: 'optional', kind: 'read' } as const;
export const postDetail = { name: 'postDetail', method: 'POST', path: '/serv/v1/post/detail', auth: 'optional', kind: 'read' } as const;
export const likeList = { name: 'likeList', method: 'POST', path: '/serv/v1/likes/list', auth: 'optional', kind: 'read' } as const;
export const commentList = { name: 'commentList', method: 'POST', path: '/serv/v1/comment/list', auth: 'optional', kind: 'read' } as const;
export const commentReplies = { name: 'commentReplies', method: 'POST', path: '/serv/v1/comment/replies', auth: 'optional', kind: 'read' } as const;
export const search = { name: 'search', method: 'POST', path: '/serv/v1/search', auth: 'optional', kind: 'read' } as const;
export const topicList = { name: 'topicList', method: 'POST', path: '/serv/v1/topic/list', auth: 'optional', kind: 'read' } as const;
export const topicDetail = { name: 'topicDetail', method: 'POST', path: '/serv/v1/topic/detail', auth: 'optional', kind: 'read' } as const;
export const topicPosts = { name: 'topicPosts', method: 'POST', path: '/serv/v1/topic/posts', auth: 'optional', kind: 'read' } as const;
export const codeDetail = { name: 'codeDetail', method: 'POST', path: '/serv/v1/code/detail', auth: 'optional', kind: 'read' } as const;
export const booklistDetail = { name: 'booklistDetail', method: 'POST', path: '/serv/v1/booklist/detail', auth: 'none', kind: 'read' } as const;
export const complainReasons = { name: 'complainReasons', method: 'POST', path: '/serv/v1/complain/reasons', auth: 'none', kind: 'read' } as const;
export const exploreList = { name: 'exploreList', method: 'POST', path: '/serv/v3/explore/list', auth: 'none', kind: 'read' } as const;
export const configList = { name: 'configList', method: 'POST', path: '/serv/v2/config/list', auth: 'none', kind: 'read' } as const;
export const wxShareSign = { name: 'wxShareSign', method: 'GET', path: '/wxmisc/wxshare/sign', auth: 'none', kind: 'read' } as const;
