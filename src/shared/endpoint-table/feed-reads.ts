/**
 * The reads of feeds and what they show, in the route table (../endpoints.ts): channels and the
 * channel directory, a feed of posts (a channel's, a topic's, a user's), a post and its comments, a
 * user's profile, the sidebar's explore list. What a first screen reads is among them.
 */

export const channelDetail = { name: 'channelDetail', method: 'POST', path: '/serv/v1/channel/detail', auth: 'optional', kind: 'read' } as const;
export const categoryChannel = { name: 'categoryChannel', method: 'POST', path: '/serv/v1/channel/category_channel', auth: 'optional', kind: 'read' } as const;
export const channelPosts = { name: 'channelPosts', method: 'POST', path: '/serv/v1/channel/posts', auth: 'optional', kind: 'read' } as const;
export const userChannelList = { name: 'userChannelList', method: 'POST', path: '/serv/v1/channel/user_channel_list', auth: 'optional', kind: 'read' } as const;
export const userInfo = { name: 'userInfo', method: 'POST', path: '/serv/v1/user/info', auth: 'optional', kind: 'read' } as const;
export const userPosts = { name: 'userPosts', method: 'POST', path: '/serv/v1/user/posts', auth: 'optional', kind: 'read' } as const;
export const postDetail = { name: 'postDetail', method: 'POST', path: '/serv/v1/post/detail', auth: 'optional', kind: 'read' } as const;
export const commentList = { name: 'commentList', method: 'POST', path: '/serv/v1/comment/list', auth: 'optional', kind: 'read' } as const;
export const commentReplies = { name: 'commentReplies', method: 'POST', path: '/serv/v1/comment/replies', auth: 'optional', kind: 'read' } as const;
export const topicPosts = { name: 'topicPosts', method: 'POST', path: '/serv/v1/topic/posts', auth: 'optional', kind: 'read' } as const;
export const exploreList = { name: 'exploreList', method: 'POST', path: '/serv/v3/explore/list', auth: 'none', kind: 'read' } as const;
