/** Moderation: the review queue, the actions on reported content and users, the audit log (moderators only, -1006 otherwise). */
import { defineHandlers } from '../http/define-endpoint.ts';
import {
  dismissComplaints,
  hideContent,
  liftSuspension,
  moderationLog,
  moderationQueue,
  restoreContent,
  suspendUser,
} from '../services/moderation.ts';
import { writer } from '../services/once.ts';
import type { RouteDeps } from './deps.ts';

export const moderationHandlers = ({ db, config, onReplay }: RouteDeps) => {
  const write = writer(db, config, onReplay);
  return defineHandlers({
    moderationQueue: ({ input, viewer }) => moderationQueue(db, viewer.userId, input),

    moderationHide: ({ input, viewer }) =>
      write({ endpoint: 'moderationHide', viewer, input }, (tx) => hideContent(tx, viewer.userId, input)),

    moderationRestore: ({ input, viewer }) =>
      write({ endpoint: 'moderationRestore', viewer, input }, (tx) => restoreContent(tx, viewer.userId, input)),

    moderationDismiss: ({ input, viewer }) =>
      write({ endpoint: 'moderationDismiss', viewer, input }, (tx) => dismissComplaints(tx, viewer.userId, input)),

    moderationSuspend: ({ input, viewer }) =>
      write({ endpoint: 'moderationSuspend', viewer, input }, (tx) => suspendUser(tx, viewer.userId, input)),

    moderationLift: ({ input, viewer }) =>
      write({ endpoint: 'moderationLift', viewer, input }, (tx) => liftSuspension(tx, viewer.userId, input)),

    moderationLog: ({ input, viewer }) => moderationLog(db, viewer.userId, input),
  });
};
