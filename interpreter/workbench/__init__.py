"""The designer's workbench: scenario tests in the game folder (`cityrules test`) and new games (`cityrules new`)."""
