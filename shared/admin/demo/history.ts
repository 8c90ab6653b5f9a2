import type { AssignmentStatus } from '#schemas/resources.ts';
import {
  DAY,
  type DraftAssignment,
  type DraftEvent,
  type DraftMessage,
  type EventInput,
  fill,
  HOUR,
  type ImportDocumentInput,
  iso,
  MINUTE,
} from './drafts.ts';
import type { Random } from './random.ts';

const SENDERS = [
  'maya@northpeak.io',
  'leo@northpeak.io',
  'ines@northpeak-mail.com',
  'sam@northpeak-mail.com',
];

type ResponseType = Extract<EventInput, { type: 'reply_received' }>['response_type'];
const RESPONSES: readonly (readonly [ResponseType, number, string])[] = [
  ['positive', 24, 'Sounds interesting. Can we talk next Tuesday?'],
  ['neutral', 14, 'Can you send more details first?'],
  ['negative', 10, 'We are happy with our current setup.'],
  ['not_interested', 20, 'Not interested, thanks.'],
  ['out_of_office', 16, 'I am out of office until next week with limited access to email.'],
  ['wrong_person', 10, 'I am not the right person for this; try our operations lead.'],
  ['unsubscribe_request', 6, 'Please remove me from your list.'],
];

/** Messages already in the past (in the document) and the recent activity (provider events). */
export interface DemoHistory {
  messages: DraftMessage[];
  events: DraftEvent[];
}

/** One assignment's history as it is being laid out. */
interface Timeline extends DemoHistory {
  random: Random;
  assignment: DraftAssignment;
  isEmail: boolean;
  sender: string;
}

const addEvent = (
  timeline: Timeline,
  at: number,
  build: (eventId: string) => EventInput,
  message?: DraftMessage,
) => {
  timeline.events.push({ at, build, message });
};

/**
 * Every assignment's history: messages already in the past, and the recent
 * activity as provider events, laid out so that each story fits before now.
 * Sets each assignment's times and its status in the file (before its events).
 */
export function demoHistories(random: Random, assignments: DraftAssignment[], now: number): DemoHistory {
  const history: DemoHistory = { messages: [], events: [] };
  for (const assignment of assignments) {
    const { messages, events } = assignmentHistory(random, assignment, now);
    history.messages.push(...messages);
    history.events.push(...events);
  }
  return history;
}

/**
 * One assignment's story, laid out forwards from a start chosen so that it
 * ends before `now`: created; approved and sequenced; its sends, then opens
 * and clicks; then how it ended. Pending ones stop after creation, scheduled
 * ones after approval.
 */
function assignmentHistory(random: Random, assignment: DraftAssignment, now: number): DemoHistory {
  const { story } = assignment;
  const steps = assignment.sequence.steps;
  const timeline: Timeline = {
    random,
    assignment,
    isEmail: assignment.sequence.channel === 'email',
    sender: random.pick(SENDERS),
    messages: [],
    events: [],
  };
  const sends =
    story === 'pending-approval' || story === 'scheduled'
      ? 0
      : story === 'completed'
        ? steps.length
        : story === 'bounced'
          ? 1
          : random.int(1, story === 'in-progress' ? steps.length - 1 || 1 : steps.length);
  // How long the story takes, so that it starts early enough to end before now.
  const span = 2 * DAY + sends * 4.5 * DAY + 5 * DAY;
  const createdAt = now - span - random.int(0, 40) * DAY - random.int(0, 23) * HOUR;
  assignment.createdAt = createdAt;

  if (story === 'pending-approval') return timeline;
  // Approval: usually long ago; for some scheduled ones it arrives as an event.
  const approvedAt = createdAt + random.int(1, 30) * HOUR;
  const sequencedAt = approvedAt + random.int(1, 12) * HOUR;
  if (story === 'scheduled') {
    scheduled(timeline, approvedAt, sequencedAt);
    return timeline;
  }
  assignment.approvedAt = approvedAt;
  assignment.sequencedAt = sequencedAt;

  const sent = sendSteps(timeline, sends, sequencedAt);
  const lastSent = sent.messages.at(-1)!;
  opensAndClicks(timeline, lastSent, sent.clock);
  const endedAt = sent.clock + 6 * HOUR + random.int(1, 36) * HOUR;
  ending(timeline, story, lastSent, endedAt);
  return { messages: timeline.messages, events: timeline.events.filter((draft) => draft.at <= now) };
}

/** A scheduled assignment: approved (and sometimes sequenced) in the file, or by events for some. */
function scheduled(timeline: Timeline, approvedAt: number, sequencedAt: number): void {
  const { random, assignment } = timeline;
  const sequenced = random.chance(0.6);
  if (random.chance(0.2)) {
    assignment.status = 'pending-approval';
    addEvent(timeline, approvedAt, (id) => ({
      id,
      type: 'approved',
      assignment_id: assignment.id,
      at: iso(approvedAt),
    }));
    if (sequenced)
      addEvent(timeline, sequencedAt, (id) => ({
        id,
        type: 'sequenced',
        assignment_id: assignment.id,
        at: iso(sequencedAt),
      }));
  } else {
    assignment.status = 'scheduled';
    assignment.approvedAt = approvedAt;
    if (sequenced) assignment.sequencedAt = sequencedAt;
  }
}

/**
 * The sent steps, after `start`; the last one is sometimes recent activity (an
 * event). Returns them and the time of the last.
 */
function sendSteps(
  timeline: Timeline,
  sends: number,
  start: number,
): { messages: DraftMessage[]; clock: number } {
  const { random, assignment, isEmail, sender } = timeline;
  const steps = assignment.sequence.steps;
  const values = assignment.variables;
  const stepGap = () => random.int(2, 4) * DAY + random.int(0, 8) * HOUR;
  let clock = start;
  const sent: DraftMessage[] = [];
  const lastSendIsEvent = assignment.story === 'in-progress' && random.chance(0.15);
  for (let step = 0; step < sends; step++) {
    clock += step === 0 ? random.int(2, 24) * HOUR : stepGap();
    const variantIndex = random.int(0, steps[step]!.variants.length - 1);
    const variant = steps[step]!.variants[variantIndex]!;
    const opens = isEmail && random.chance(0.55) ? random.int(1, 4) : 0;
    const message: DraftMessage = {
      id: 0,
      assignment,
      type: 'sent',
      step_type: steps[step]!.type,
      step_index: step,
      variant_index: variantIndex,
      subject: isEmail && variant.subject ? fill(variant.subject, values) : null,
      body: fill(variant.body, values),
      open_count: opens,
      sender_email: isEmail ? sender : null,
      created_at: iso(clock),
    };
    sent.push(message);
    if (step === sends - 1 && lastSendIsEvent) {
      const at = clock;
      message.open_count = 0;
      addEvent(
        timeline,
        at,
        (id) => ({
          id,
          type: 'message_sent',
          assignment_id: assignment.id,
          at: iso(at),
          message: {
            id: message.id,
            step_type: message.step_type,
            step_index: message.step_index,
            variant_index: message.variant_index,
            subject: message.subject,
            body: message.body,
            sender_email: message.sender_email,
          },
        }),
        message,
      );
    } else timeline.messages.push(message);
  }
  // An assignment whose only send is an event is still scheduled before it.
  assignment.status = lastSendIsEvent && sends === 1 ? 'scheduled' : 'in-progress';
  return { messages: sent, clock };
}

/** Opens and clicks reported as events, between the last send and whatever follows. */
function opensAndClicks(timeline: Timeline, lastSent: DraftMessage, clock: number): void {
  const { random, assignment } = timeline;
  if (!timeline.isEmail || !random.chance(0.12)) return;
  const at = clock + random.int(1, 6) * HOUR;
  addEvent(timeline, at, (id) => ({
    id,
    type: 'opened',
    assignment_id: assignment.id,
    at: iso(at),
    message_id: lastSent.id,
  }));
  if (random.chance(0.75)) {
    const clickedAt = at + random.int(1, 30) * MINUTE;
    addEvent(timeline, clickedAt, (id) => ({
      id,
      type: 'clicked',
      assignment_id: assignment.id,
      at: iso(clickedAt),
      message_id: lastSent.id,
    }));
  }
}

/** How the story ends at `endedAt`: in the file, or as an event; in-progress ones have not ended. */
function ending(timeline: Timeline, story: AssignmentStatus, lastSent: DraftMessage, endedAt: number): void {
  const { random, assignment } = timeline;
  const viaEvent = random.chance(story === 'completed' ? 0.25 : 0.3);
  if (story === 'completed') {
    if (viaEvent)
      addEvent(timeline, endedAt, (id) => ({
        id,
        type: 'completed',
        assignment_id: assignment.id,
        at: iso(endedAt),
      }));
    else {
      assignment.status = 'completed';
      assignment.completedAt = endedAt;
    }
  } else if (story === 'bounced' || story === 'unsubscribed') {
    if (viaEvent)
      addEvent(timeline, endedAt, (id) => ({
        id,
        type: story,
        assignment_id: assignment.id,
        at: iso(endedAt),
      }));
    else {
      assignment.status = story;
      if (story === 'bounced') assignment.bouncedAt = endedAt;
      else assignment.unsubscribedAt = endedAt;
    }
  } else if (story === 'replied') replied(timeline, lastSent, endedAt, viaEvent);
}

/**
 * The contact's reply (of a weighted response type), in the file or as an
 * event; a positive email reply in the file is sometimes answered, and an
 * email reply sometimes forwarded (an event).
 */
function replied(timeline: Timeline, lastSent: DraftMessage, endedAt: number, viaEvent: boolean): void {
  const { random, assignment, isEmail, sender } = timeline;
  const [responseType, , body] = random.weighted(RESPONSES.map((entry) => [entry, entry[1]] as const));
  const reply: DraftMessage = {
    id: 0,
    assignment,
    type: 'received',
    step_type: isEmail ? 'reply' : 'linkedin_message',
    step_index: lastSent.step_index,
    variant_index: null,
    response_type: responseType,
    subject: lastSent.subject ? `Re: ${lastSent.subject.replace(/^Re: /, '')}` : null,
    body,
    open_count: 0,
    sender_email: isEmail ? (assignment.contact.email ?? null) : null,
    created_at: iso(endedAt),
  };
  if (viaEvent) {
    addEvent(
      timeline,
      endedAt,
      (id) => ({
        id,
        type: 'reply_received',
        assignment_id: assignment.id,
        at: iso(endedAt),
        response_type: responseType,
        message: {
          id: reply.id,
          step_type: reply.step_type,
          step_index: reply.step_index,
          subject: reply.subject,
          body: reply.body,
          sender_email: reply.sender_email,
        },
      }),
      reply,
    );
  } else {
    assignment.status = 'replied';
    timeline.messages.push(reply);
    if (responseType === 'positive' && isEmail && random.chance(0.6)) {
      const answeredAt = endedAt + random.int(1, 5) * HOUR;
      timeline.messages.push({
        ...reply,
        id: 0,
        type: 'sent',
        response_type: null,
        body: `Great to hear, ${assignment.variables.first_name}. Here is my calendar: https://cal.northpeak.io/${sender.split('@')[0]}`,
        sender_email: sender,
        created_at: iso(answeredAt),
      });
    }
  }
  if (isEmail && random.chance(0.05)) {
    const forwardedAt = endedAt + random.int(2, 48) * HOUR;
    const forward: DraftMessage = {
      ...reply,
      type: 'forward',
      response_type: null,
      subject: reply.subject ? `Fwd: ${reply.subject}` : null,
      body: 'Forwarding to our operations lead, who owns this.',
      created_at: iso(forwardedAt),
    };
    addEvent(
      timeline,
      forwardedAt,
      (id) => ({
        id,
        type: 'forwarded',
        assignment_id: assignment.id,
        at: iso(forwardedAt),
        message: {
          id: forward.id,
          step_type: 'reply',
          step_index: forward.step_index,
          subject: forward.subject,
          body: forward.body,
          sender_email: forward.sender_email,
        },
      }),
      forward,
    );
  }
}

/** A message as the import document writes it. */
export function toMessageInput({
  assignment,
  ...message
}: DraftMessage): NonNullable<ImportDocumentInput['messages']>[number] {
  return { ...message, assignment_id: assignment.id };
}
