"""g2c: the course package. This assignment ships one subpackage, `g2c.linear_attention`."""
