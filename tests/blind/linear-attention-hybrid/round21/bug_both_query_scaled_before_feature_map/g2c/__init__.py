"""g2c: the package of this assignment; it holds one subpackage, `g2c.linear_attention`."""
