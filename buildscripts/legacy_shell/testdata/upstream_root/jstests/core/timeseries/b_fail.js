assert.eq(1, 2, "deliberate");
