package io.sqlqueue.management;

import java.util.List;
import javax.management.MBeanAttributeInfo;
import javax.management.StandardMBean;

/**
 * An MXBean whose attributes carry their {@link Description} in the bean's MBeanInfo, where
 * JConsole, VisualVM and the JMX exporter read it; registered as the bean would be, with the same
 * open types. Attributes without one keep the JDK's default text.
 */
final class DescribedMXBean extends StandardMBean {

    private final Class<?> mxbeanInterface;

    <T> DescribedMXBean(T bean, Class<T> mxbeanInterface) {
        super(bean, mxbeanInterface, true);
        this.mxbeanInterface = mxbeanInterface;
    }

    /** {@code bean} described, if it is one of the adapter's management beans; else {@code bean} itself. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Object of(Object bean) {
        for (Class<?> mxbean : List.of(ConsumerMXBean.class, QueueMXBean.class, ProducerMXBean.class)) {
            if (mxbean.isInstance(bean)) {
                return new DescribedMXBean(bean, (Class) mxbean);
            }
        }
        return bean;
    }

    @Override
    protected String getDescription(MBeanAttributeInfo info) {
        String described = AttributeDescriptions.of(mxbeanInterface, info.getName());
        return described == null ? super.getDescription(info) : described;
    }
}
