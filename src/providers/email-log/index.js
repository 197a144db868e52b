'use strict';

/**
 * An email provider for sites without an SMTP server: every message is logged, so a developer
 * sees what would have been sent and nothing leaves the machine.
 */
module.exports = {
  init(_providerOptions = {}, settings = {}) {
    return {
      async send(options) {
        const message = {
          from: options.from || settings.defaultFrom,
          to: options.to,
          replyTo: options.replyTo || settings.defaultReplyTo,
          subject: options.subject,
          text: options.text,
        };
        const log = (globalThis.strapi && globalThis.strapi.log) || console;
        log.info(`[email] (not sent: no SMTP_HOST configured) ${JSON.stringify(message)}`);
      },
    };
  },
};
