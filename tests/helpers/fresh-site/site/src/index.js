'use strict';

/**
 * What the site's owner would tick in Settings → Users & Permissions → Roles: signed-in users
 * read recipes and chefs and create recipes; everyone reads chefs, and nobody else reads recipes.
 */
const GRANTS = {
  authenticated: [
    'api::recipe.recipe.find',
    'api::recipe.recipe.findOne',
    'api::recipe.recipe.create',
    'api::chef.chef.find',
    'api::chef.chef.findOne',
  ],
  public: ['api::chef.chef.find', 'api::chef.chef.findOne'],
};

module.exports = {
  register() {},

  async bootstrap({ strapi }) {
    const roles = strapi.db.query('plugin::users-permissions.role');
    const permissions = strapi.db.query('plugin::users-permissions.permission');
    for (const [type, actions] of Object.entries(GRANTS)) {
      const role = await roles.findOne({ where: { type } });
      if (!role) throw new Error(`the users-permissions role "${type}" does not exist`);
      for (const action of actions) {
        if ((await permissions.count({ where: { action, role: role.id } })) === 0) {
          await permissions.create({ data: { action, role: role.id } });
        }
      }
    }
  },
};
