import type { FastifyInstance } from 'fastify';
import { api } from '#shared/api.ts';
import { defineEndpoint } from '../http/define-endpoint.ts';
import { getCodeSnippet } from '../services/code.ts';
import { listComments } from '../services/comments.ts';
import { listLikers } from '../services/likes.ts';
import { getPost, listPosts } from '../services/posts.ts';
import { getTopic, listTopics } from '../services/topics.ts';
import type { RouteDeps } from './deps.ts';

export async function postRoutes(app: FastifyInstance, { db }: RouteDeps) {
  defineEndpoint(app, api.postDetail, ({ input, viewer }) => getPost(db, input.post_id, viewer?.userId ?? null));

  defineEndpoint(app, api.commentList, async ({ input, viewer }) => {
    await getPost(db, input.post_id, null);
    return listComments(db, input.post_id, input, viewer?.userId ?? null);
  });

  defineEndpoint(app, api.likeList, async ({ input, viewer }) => {
    await getPost(db, input.post_id, null);
    return listLikers(db, input.post_id, input, viewer?.userId ?? null);
  });

  defineEndpoint(app, api.codeDetail, ({ input }) => getCodeSnippet(db, input.post_id, input.uuid));

  defineEndpoint(app, api.topicList, ({ input }) => listTopics(db, input));

  defineEndpoint(app, api.topicDetail, ({ input }) => getTopic(db, input.topic_id));

  defineEndpoint(app, api.topicPosts, async ({ input, viewer }) => {
    await getTopic(db, input.topic_id);
    return listPosts(db, { kind: 'topic', topicId: input.topic_id }, input, viewer?.userId ?? null);
  });
}
