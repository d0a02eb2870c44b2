/** Complaints: the reasons a client lists, and filing one (exactly once per client_id). */
import { COMPLAIN_REASONS } from '#shared/constants.ts';
import { defineHandlers } from '../http/define-endpoint.ts';
import { addComplaint } from '../services/complaints.ts';
import { writer } from '../services/once.ts';
import type { RouteDeps } from './deps.ts';

export const complaintHandlers = ({ db, config, onReplay }: RouteDeps) => {
  const write = writer(db, config, onReplay);
  return defineHandlers({
    complainReasons: async () => ({ list: COMPLAIN_REASONS.map(({ reason, text }) => ({ reason, text })) }),

    complainAdd: ({ input, viewer }) =>
      write({ endpoint: 'complainAdd', viewer, input }, (tx) =>
        addComplaint(tx, viewer.userId, input, { dailyLimit: config.dailyComplaintLimit, autoHideAt: config.autoHideComplaints }),
      ),
  });
};
