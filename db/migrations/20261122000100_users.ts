import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.string('name', 100).notNullable();
    t.string('name_key', 100).notNullable(); // trimmed, lower-cased name: what sign-in compares
    t.string('email', 254).notNullable().unique(); // stored lower-cased
    t.string('phone', 40);
    t.string('phone_digits', 40); // digits only: what sign-in compares
    t.string('address', 300);
    t.string('role', 16).notNullable();
    t.integer('shift');
    t.integer('gender');
    t.string('location', 200);
    t.boolean('active').notNullable().defaultTo(true);
    t.integer('version').notNullable().defaultTo(1);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('users');
}
